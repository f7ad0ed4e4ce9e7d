import { z } from 'zod';
import { AppError, badInput, notFound, notifications, type Mailer, type RequestContext } from '@fieldbook/core';
import type { Knex } from 'knex';
import type { ResearchServices } from '@fieldbook/research';
import { outsideAddresses } from './email-domains.ts';
import type { ActionType, AgentsPort } from './types.ts';

const id = (what: string) => z.uuid({ error: `${what} must be a valid id.` });

export const AGENTS_UNAVAILABLE = 'AI agents are not available in this workspace.';

export interface BuiltinDeps {
  research: ResearchServices;
  mailer: Mailer;
  app: Knex;
  agents(): AgentsPort | null;
  memberContext(workspaceId: string, userId: string): Promise<RequestContext | null>;
}

const createNoteParams = z.object({
  projectId: id('projectId'),
  title: z
    .string()
    .min(1, 'title: a note needs a title.')
    .max(200, 'title: a note title can have at most 200 characters.'),
  text: z.string().max(100_000, 'text: at most 100,000 characters.').default(''),
});
const addTagParams = z.object({
  tagIds: z.array(id('tagIds')).min(1, 'tagIds: choose at least one tag.').max(20, 'tagIds: at most 20 tags.'),
});
const notifyParams = z.object({
  userIds: z.array(id('userIds')).min(1, 'userIds: choose at least one person.').max(50, 'userIds: at most 50 people.'),
  message: z.string().min(1, 'message: write a message.').max(2000, 'message: at most 2,000 characters.'),
});
const emailParams = z.object({
  to: z
    .array(z.email({ error: 'to: each recipient must be an email address.' }))
    .min(1, 'to: at least one recipient.')
    .max(20, 'to: at most 20 recipients.'),
  subject: z.string().min(1, 'subject: write a subject.').max(200, 'subject: at most 200 characters.'),
  text: z.string().min(1, 'text: write the message.').max(20_000, 'text: at most 20,000 characters.'),
});
const agentParams = z.object({
  agentId: z.string().min(1, 'agentId: choose an agent.'),
  prompt: z.string().min(1, 'prompt: write a prompt.').max(10_000, 'prompt: at most 10,000 characters.'),
});

function workspaceOf(member: RequestContext): string {
  if (!member.workspace) throw new Error('An automation runs in a workspace.');
  return member.workspace.id;
}

/** The built-in actions (createNote, addTag, notifyPeople, sendEmail) and invokeAgent. */
export function builtinActions(deps: BuiltinDeps): ActionType[] {
  return [
    {
      actionType: 'createNote',
      title: 'Create a note',
      description: 'Creates a note in a project.',
      parameters: createNoteParams,
      transactional: true,
      async checkIds(member, params) {
        const { projectId } = createNoteParams.parse(params);
        const level = await deps.research.projectLevel(member, projectId);
        if (!level) throw notFound('That project');
        if (level === 'read') throw badInput('projectId', 'The automation’s owner cannot add notes to that project.');
      },
      async execute(member, params) {
        const p = createNoteParams.parse(params);
        const note = await deps.research.createNote(member, { projectId: p.projectId, title: p.title, text: p.text });
        return { summary: `Created the note “${note.title}”.`, noteId: note.id };
      },
    },
    {
      actionType: 'addTag',
      title: 'Tag the note',
      description: 'Adds tags to the note the event is about.',
      parameters: addTagParams,
      needsContext: ['note'],
      transactional: true,
      async checkIds(member, params) {
        await deps.research.assertTagsReadable(member, addTagParams.parse(params).tagIds);
      },
      async execute(member, params, trigger) {
        const noteId = (trigger.payload.note as { id?: string } | undefined)?.id;
        if (!noteId) throw new AppError('INVALID_OPERATION', 'This event is not about a note.');
        const titles = await deps.research.tagNote(member, noteId, addTagParams.parse(params).tagIds);
        return {
          summary: `The note now has ${titles.length} tag${titles.length === 1 ? '' : 's'}: ${titles.join(', ')}.`,
          noteId,
        };
      },
    },
    {
      actionType: 'notifyPeople',
      title: 'Notify people',
      description: 'Sends an in-app notification to members of the workspace.',
      parameters: notifyParams,
      transactional: false,
      async checkIds(member, params) {
        for (const userId of notifyParams.parse(params).userIds) {
          if (!(await deps.memberContext(workspaceOf(member), userId))) throw notFound('That person');
        }
      },
      async execute(member, params, trigger) {
        const p = notifyParams.parse(params);
        for (const userId of p.userIds) {
          await notifications.notify(deps.app, {
            userId,
            workspaceId: workspaceOf(member),
            type: 'automation_message',
            payload: { message: p.message, event: trigger.event },
          });
        }
        return { summary: `Notified ${p.userIds.length} ${p.userIds.length === 1 ? 'person' : 'people'}.` };
      },
    },
    {
      actionType: 'sendEmail',
      title: 'Send an email',
      description:
        'Sends an email to members of the workspace, and to addresses outside it at domains a workspace admin allowed.',
      parameters: emailParams,
      transactional: false,
      async checkIds(member, params) {
        const refused = await outsideAddresses(member, emailParams.parse(params).to);
        if (refused) throw badInput('to', refused);
      },
      async execute(member, params) {
        const p = emailParams.parse(params);
        // Checked again as it runs: an admin may have taken a domain off the list since it was saved.
        const refused = await outsideAddresses(member, p.to);
        if (refused) throw new AppError('FORBIDDEN', refused);
        for (const to of p.to) await deps.mailer.send({ to, subject: p.subject, text: p.text });
        return { summary: `Emailed ${p.to.length} recipient${p.to.length === 1 ? '' : 's'}.` };
      },
    },
    {
      actionType: 'invokeAgent',
      title: 'Ask an AI agent',
      description: 'Runs an AI agent with a prompt.',
      parameters: agentParams,
      transactional: false,
      get unavailable() {
        return deps.agents() ? undefined : AGENTS_UNAVAILABLE;
      },
      async checkIds(member, params) {
        const agents = deps.agents();
        if (!agents) throw badInput('actionType', AGENTS_UNAVAILABLE);
        if (!(await agents.agentReadable(member, agentParams.parse(params).agentId))) throw notFound('That agent');
      },
      async execute(member, params, trigger) {
        const agents = deps.agents();
        if (!agents) throw new AppError('INVALID_OPERATION', AGENTS_UNAVAILABLE);
        const p = agentParams.parse(params);
        return agents.invoke(member, { agentId: p.agentId, prompt: p.prompt, trigger });
      },
    },
  ];
}
