import type { MailMessage } from '../email/mailer.ts';
import type { ProductRole } from '../permissions/roles.ts';

const ROLE_WORDS: Readonly<Record<ProductRole, string>> = {
  VIEWER: 'a viewer',
  CONTRIBUTOR: 'a contributor',
  MANAGER: 'a manager',
};

/** The link of an invite: the accept-invite page of the root-domain app (002 §2). */
export function acceptInviteLink(publicUrl: URL, token: string): string {
  const url = new URL('/auth/accept-invite', publicUrl);
  url.searchParams.set('token', token);
  return url.toString();
}

/** The invitation mail: who invites, to which workspace, in which role, and the inviter's note. */
export function inviteMail(input: {
  to: string;
  inviterName: string;
  workspaceName: string;
  role: ProductRole;
  workspaceAdmin: boolean;
  message: string | null;
  link: string;
  validDays: number;
}): MailMessage {
  const as = input.workspaceAdmin ? 'a workspace admin' : ROLE_WORDS[input.role];
  const note = input.message
    ? `\n\nThey wrote:\n\n${input.message
        .split('\n')
        .map((l) => `> ${l}`)
        .join('\n')}`
    : '';
  return {
    to: input.to,
    subject: `${input.inviterName} invited you to ${input.workspaceName} on Fieldbook`,
    text:
      `Hello,\n\n${input.inviterName} invited you to join the ${input.workspaceName} workspace on Fieldbook as ${as}.${note}\n\n` +
      `To accept, open this link:\n\n${input.link}\n\nThe invite is valid for ${input.validDays} days. ` +
      'If you were not expecting it, you can ignore this email.\n\n— Fieldbook',
  };
}
