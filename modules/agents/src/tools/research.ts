import { z } from 'zod';
import {
  cutText,
  notFound,
  recordProvenance,
  type AgentTool,
  type AiService,
  type RequestContext,
} from '@fieldbook/core';
import type { ResearchServices } from '@fieldbook/research';
import { callUsage } from '../conversations/usage.ts';
import { memberOf, readableDoc, readableProjects } from './access.ts';
import { defineTool, idArg, lines } from './define.ts';

/** Text of a note given to a model at most: a long transcript is cut, saying so. */
const NOTE_TEXT_MAX = 12_000;
export const AGENT_PROMPT_VERSION = 'agents-1';

const title = (value: string, untitled: string) => value.trim() || untitled;

/**
 * Records that an agent made or changed a note: the model and tokens of the call that wrote it
 * (shown as the note's AI label). Called through MCP, where the model is the person's own
 * assistant, no tokens were spent here.
 */
async function provenanceOf(member: RequestContext, ai: AiService, noteId: string, projectId: string): Promise<void> {
  const m = memberOf(member);
  const usage = callUsage();
  await member.tx((trx) =>
    recordProvenance(trx, m.workspaceId, {
      objectType: 'NOTE',
      objectId: noteId,
      model: usage?.model ?? ai.model?.chatModel ?? 'local',
      endpointHost: usage?.endpointHost ?? ai.model?.endpointHost ?? null,
      promptVersion: AGENT_PROMPT_VERSION,
      inputIds: [projectId],
      inputTypes: { project: 1 },
      promptTokens: usage?.promptTokens ?? 0,
      completionTokens: usage?.completionTokens ?? 0,
      createdBy: m.userId,
      madeBy: 'AGENT',
    }),
  );
}

/** Research tools: projects, notes, summaries, and notes an agent writes (after the person confirms). */
export function researchTools(research: ResearchServices, ai: AiService): AgentTool[] {
  return [
    defineTool({
      name: 'list_projects',
      description: 'Lists the projects the person can read, with their ids and titles.',
      access: 'read',
      input: z.object({}),
      async run(member) {
        const m = memberOf(member);
        const projects = [...(await member.tx((trx) => readableProjects(trx, m)))].map(([id, t]) => ({
          id,
          title: title(t, 'Untitled project'),
        }));
        return {
          text: lines(projects, (p) => `${p.id}: ${p.title}`, 'There are no projects you can read.'),
          items: projects.map((p) => ({ type: 'PROJECT', id: p.id, title: p.title, url: `/projects/${p.id}` })),
          data: projects,
        };
      },
    }),
    defineTool({
      name: 'list_project_notes',
      description: 'Lists the notes of a project, newest change first: id, title, createdAt, updatedAt.',
      access: 'read',
      input: z.object({ projectId: idArg('projectId', 'a project') }),
      async run(member, input) {
        const m = memberOf(member);
        const notes = await member.tx(async (trx) => {
          if (!(await readableProjects(trx, m)).has(input.projectId)) throw notFound('That project');
          return (await trx('notes')
            .where({ workspace_id: m.workspaceId, project_id: input.projectId })
            .whereNull('deleted_at')
            .orderBy('updated_at', 'desc')
            .limit(200)
            .select('id', 'title', 'created_at', 'updated_at')) as Array<{
            id: string;
            title: string;
            created_at: Date;
            updated_at: Date;
          }>;
        });
        const list = notes.map((n) => ({
          id: n.id,
          title: title(n.title, 'Untitled note'),
          createdAt: n.created_at.toISOString(),
          updatedAt: n.updated_at.toISOString(),
        }));
        return {
          text: lines(
            list,
            (n) => `${n.id}: ${n.title} (created ${n.createdAt.slice(0, 10)}, updated ${n.updatedAt.slice(0, 10)})`,
            'The project has no notes.',
          ),
          items: list.map((n) => ({ type: 'NOTE', id: n.id, title: n.title, url: `/data/${n.id}` })),
          data: list,
        };
      },
    }),
    defineTool({
      name: 'get_note',
      description: 'Reads one note: its title, project and text.',
      access: 'read',
      input: z.object({ noteId: idArg('noteId', 'a note') }),
      async run(member, input) {
        const m = memberOf(member);
        const note = await member.tx((trx) => readableDoc(trx, m, 'notes', input.noteId));
        const text = cutText(note.content_text, NOTE_TEXT_MAX);
        const cut =
          text.length < note.content_text.length
            ? `\n[The note goes on; ${note.content_text.length - text.length} more characters are not shown.]`
            : '';
        const name = title(note.title, 'Untitled note');
        return {
          text: `Note “${name}” in project “${note.projectTitle}” (id ${note.id}, updated ${note.updated_at.toISOString().slice(0, 10)}):\n${text}${cut}`,
          items: [{ type: 'NOTE', id: note.id, title: name, url: `/data/${note.id}`, text: note.content_text }],
          data: {
            id: note.id,
            title: name,
            projectId: note.project_id,
            projectTitle: note.projectTitle,
            text,
            createdAt: note.created_at.toISOString(),
            updatedAt: note.updated_at.toISOString(),
          },
        };
      },
    }),
    defineTool({
      name: 'summary_retrieval',
      description: 'Reads the AI summary stored for a note or an insight, if one was generated.',
      access: 'read',
      input: z.object({
        objectType: z.enum(['note', 'insight'], { error: 'objectType must be note or insight.' }),
        objectId: idArg('objectId', 'a note or insight'),
      }),
      async run(member, input) {
        const m = memberOf(member);
        const table = input.objectType === 'note' ? 'notes' : 'insights';
        const { doc, summary } = await member.tx(async (trx) => {
          const doc = await readableDoc(trx, m, table, input.objectId);
          const row = (await trx('ai_summaries')
            .where({ workspace_id: m.workspaceId, object_type: input.objectType, object_id: input.objectId })
            .first('content')) as { content: { text?: string } } | undefined;
          return { doc, summary: row?.content.text ?? null };
        });
        const url = input.objectType === 'note' ? `/data/${doc.id}` : `/insights/${doc.id}`;
        const name = title(doc.title, `Untitled ${input.objectType}`);
        return {
          text: summary
            ? `Summary of “${name}”:\n${summary}`
            : `“${name}” has no AI summary yet. Read it with get_note to summarize it yourself.`,
          items: [{ type: input.objectType.toUpperCase(), id: doc.id, title: name, url }],
          data: { id: doc.id, summary },
        };
      },
    }),
    defineTool({
      name: 'create_document',
      description:
        'Creates a note in a project, with a title and plain text (one paragraph per line). The person confirms before it is created.',
      access: 'write',
      needsConfirmation: true,
      input: z.object({
        projectId: idArg('projectId', 'the project to create the note in'),
        title: z
          .string({ error: 'title must be text.' })
          .trim()
          .min(1, 'title: a note needs a title.')
          .max(200, 'title: a note title can have at most 200 characters.'),
        text: z.string({ error: 'text must be text.' }).max(100_000, 'text: at most 100,000 characters.').default(''),
      }),
      async run(member, input) {
        const note = await research.createNote(member, input);
        await provenanceOf(member, ai, note.id, note.projectId);
        return {
          text: `Created the note “${note.title}” (id ${note.id}).`,
          items: [{ type: 'NOTE', id: note.id, title: note.title, url: `/data/${note.id}` }],
          data: note,
        };
      },
    }),
    defineTool({
      name: 'edit_document',
      description:
        'Edits a note: a new title, and text added at its end (mode append, the default) or replacing its text (mode replace). The person confirms first.',
      access: 'write',
      needsConfirmation: true,
      input: z
        .object({
          noteId: idArg('noteId', 'the note to edit'),
          title: z
            .string({ error: 'title must be text.' })
            .trim()
            .min(1, 'title: a note needs a title.')
            .max(200, 'title: a note title can have at most 200 characters.')
            .optional(),
          text: z.string({ error: 'text must be text.' }).max(100_000, 'text: at most 100,000 characters.').optional(),
          mode: z.enum(['append', 'replace'], { error: 'mode must be append or replace.' }).default('append'),
        })
        .refine((v) => v.title !== undefined || v.text !== undefined, {
          message: 'text: give a new title or text.',
          path: ['text'],
        }),
      async run(member, input) {
        const note = await research.editNote(member, input.noteId, input);
        await provenanceOf(member, ai, note.id, note.projectId);
        return {
          text: `Edited the note “${note.title}” (id ${note.id}).`,
          items: [{ type: 'NOTE', id: note.id, title: note.title, url: `/data/${note.id}` }],
          data: note,
        };
      },
    }),
  ];
}
