import { describe, expect, it } from 'vitest';
import { describeAuditEntry, kindLabel } from './audit-text.ts';

describe('audit log sentences', () => {
  it('says what happened in words', () => {
    expect(describeAuditEntry({ kind: 'WORKSPACE', metadata: { action: 'created', name: 'Acme' } })).toBe(
      'Created the workspace “Acme”',
    );
    expect(
      describeAuditEntry({
        kind: 'INVITE',
        metadata: { action: 'sent', email: 'a@x.io', role: 'VIEWER', workspaceAdmin: false },
      }),
    ).toBe('Invited a@x.io as viewer');
    expect(
      describeAuditEntry({ kind: 'MEMBER_ADDED', metadata: { via: 'INVITE', role: 'MANAGER', workspaceAdmin: true } }),
    ).toBe('Joined by invitation as workspace admin');
    expect(
      describeAuditEntry({
        kind: 'ROLE_CHANGE',
        metadata: { old: { role: 'VIEWER', workspaceAdmin: false }, new: { role: 'MANAGER', workspaceAdmin: false } },
      }),
    ).toBe('Changed a member’s role from viewer to manager');
    expect(describeAuditEntry({ kind: 'DOMAINS', metadata: { old: [], new: ['acme.com'] } })).toBe(
      'Set the allowed email domains to acme.com',
    );
    expect(describeAuditEntry({ kind: 'API_TOKEN', metadata: { action: 'revoked', name: 'CI' } })).toBe(
      'Revoked the API token “CI”',
    );
    expect(
      describeAuditEntry({ kind: 'MCP_TOOL_CALL', metadata: { tool: 'get_note', access: 'read', outcome: 'ok' } }),
    ).toBe('An AI assistant (MCP) ran get_note');
    expect(
      describeAuditEntry({
        kind: 'MCP_TOOL_CALL',
        metadata: { tool: 'create_document', access: 'write', outcome: 'refused', errorCode: 'FORBIDDEN' },
      }),
    ).toBe('An AI assistant (MCP) was refused create_document');
  });

  it('falls back to the kind for entries it does not know', () => {
    expect(describeAuditEntry({ kind: 'BILLING_PLAN_CHANGED', metadata: {} })).toBe('Billing plan changed');
    expect(kindLabel('note:created')).toBe('Note created');
  });
});
