import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * AI agents (000 §2 /agents, 001 §3.3): agents with instructions, a model and a tool set;
 * conversations with them, each its person's own; and their messages (ASSISTANT, RESULT,
 * THINKING, USER), rated Good or Bad. A conversation waiting for the person to confirm keeps the
 * tool calls it paused on, so a reload still shows the question.
 */
export async function up(knex: Knex): Promise<void> {
  const workspace = (t: Knex.CreateTableBuilder) =>
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');

  await knex.schema.createTable('agents', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    workspace(t);
    t.string('name', 255).notNullable();
    t.text('instructions').notNullable().defaultTo('');
    t.text('model');
    t.specificType('tools', 'text[]').notNullable().defaultTo('{}');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id', 'name']);
  });
  await enableTenantRls(knex, 'agents');

  await knex.schema.createTable('agent_conversations', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    workspace(t);
    t.uuid('agent_id').notNullable().references('agents.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('title', 500).notNullable();
    t.string('status', 30).notNullable().defaultTo('IDLE');
    t.jsonb('pending');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id', 'user_id', 'updated_at']);
  });
  await knex.raw(
    `alter table agent_conversations add constraint agent_conversations_status_check check (status in ('IDLE', 'RUNNING', 'AWAITING_CONFIRMATION'))`,
  );
  await enableTenantRls(knex, 'agent_conversations');

  await knex.schema.createTable('agent_messages', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    workspace(t);
    t.uuid('conversation_id').notNullable().references('agent_conversations.id').onDelete('CASCADE');
    t.bigIncrements('seq', { primaryKey: false });
    t.string('type', 20).notNullable();
    t.text('content').notNullable().defaultTo('');
    t.jsonb('tool');
    t.specificType('item_ids', 'uuid[]').notNullable().defaultTo('{}');
    t.string('rating', 10);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['conversation_id', 'seq']);
  });
  await knex.raw(
    `alter table agent_messages add constraint agent_messages_type_check check (type in ('ASSISTANT', 'RESULT', 'THINKING', 'USER'))`,
  );
  await knex.raw(
    `alter table agent_messages add constraint agent_messages_rating_check check (rating is null or rating in ('Good', 'Bad'))`,
  );
  await knex.raw(`create index agent_messages_item_ids on agent_messages using gin (item_ids)`);
  await enableTenantRls(knex, 'agent_messages');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('agent_messages');
  await knex.schema.dropTable('agent_conversations');
  await knex.schema.dropTable('agents');
}
