import type { FieldbookHost } from '@fieldbook/extensions-sdk/web';

/** The filter object types of 001 §3.3, in the order the builder offers them. */
export const FILTER_TYPES = [
  'ProjectCategory',
  'Project',
  'Channel',
  'Note',
  'Insight',
  'Tag',
  'Chart',
  'MultiSelect',
] as const;
export type FilterType = (typeof FILTER_TYPES)[number];

export const FILTER_LABELS: Record<FilterType, string> = {
  ProjectCategory: 'Folder',
  Project: 'Project',
  Channel: 'Channel',
  Note: 'Note',
  Insight: 'Insight',
  Tag: 'Tag',
  Chart: 'Chart',
  MultiSelect: 'Field option',
};

export interface ObjectFilter {
  type: FilterType;
  objectIds: string[];
}

export interface Choice {
  value: string;
  label: string;
}

/** The search as kept in the address: q, f=Type:id,id (repeated), from and to (dates). */
export interface ConversationQuery {
  query: string;
  filters: ObjectFilter[];
  from: string;
  to: string;
}

const isType = (s: string): s is FilterType => (FILTER_TYPES as readonly string[]).includes(s);

export function readQuery(params: URLSearchParams): ConversationQuery {
  const filters: ObjectFilter[] = [];
  for (const raw of params.getAll('f')) {
    const [type = '', ids = ''] = raw.split(':');
    const objectIds = ids.split(',').filter(Boolean);
    if (isType(type) && objectIds.length > 0) filters.push({ type, objectIds });
  }
  return { query: params.get('q') ?? '', filters, from: params.get('from') ?? '', to: params.get('to') ?? '' };
}

export function writeQuery(q: ConversationQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (q.query) params.set('q', q.query);
  for (const f of q.filters) params.append('f', `${f.type}:${f.objectIds.join(',')}`);
  if (q.from) params.set('from', q.from);
  if (q.to) params.set('to', q.to);
  return params;
}

export const isEmptyQuery = (q: ConversationQuery) => !q.query && q.filters.length === 0 && !q.from && !q.to;

/**
 * The filters as the server takes them. The date range rides on a filter of its own: the server
 * applies a range to the conversations whatever the filter's type.
 */
export function toInput(q: ConversationQuery) {
  const filters: Array<{
    type: FilterType;
    objectIds?: string[];
    dateRange?: { from: string | null; to: string | null };
  }> = q.filters.map((f) => ({ ...f }));
  if (q.from || q.to) {
    filters.push({
      type: 'Project',
      dateRange: {
        from: q.from ? new Date(`${q.from}T00:00:00`).toISOString() : null,
        to: q.to ? new Date(`${q.to}T23:59:59.999`).toISOString() : null,
      },
    });
  }
  return { query: q.query || null, filters };
}

type Projects = { projects: Array<{ id: string; title: string }> };
const untitled = (title: string, what: string) => title || `Untitled ${what}`;

/** Per project: the lists that only exist project by project (notes, insights, charts). */
async function perProject(
  host: FieldbookHost,
  load: (projectId: string, projectTitle: string) => Promise<Choice[]>,
): Promise<Choice[]> {
  const { projects } = await host.graphql<Projects>('{ projects { id title } }');
  return (await Promise.all(projects.map((p) => load(p.id, untitled(p.title, 'project'))))).flat();
}

/** The objects of one type the person may read, from the queries the research and channels pages use. */
export async function loadChoices(host: FieldbookHost, type: FilterType): Promise<Choice[]> {
  switch (type) {
    case 'Project':
      return (await host.graphql<Projects>('{ projects { id title } }')).projects.map((p) => ({
        value: p.id,
        label: untitled(p.title, 'project'),
      }));
    case 'ProjectCategory':
      return (
        await host.graphql<{ folders: Array<{ id: string; title: string }> }>('{ folders(all: true) { id title } }')
      ).folders.map((f) => ({ value: f.id, label: f.title }));
    case 'Channel':
      // Channels is optional: without it there is nothing to pick.
      try {
        return (
          await host.graphql<{ channels: Array<{ id: string; name: string }> }>('{ channels { id name } }')
        ).channels.map((c) => ({ value: c.id, label: c.name }));
      } catch {
        return [];
      }
    case 'Note':
    case 'Insight': {
      const list = type === 'Note' ? 'notes' : 'insights';
      return perProject(host, async (projectId, projectTitle) => {
        const r = await host.graphql<Record<string, { nodes: Array<{ id: string; title: string }> }>>(
          `query($p: ID!) { ${list}(projectId: $p, first: 100) { nodes { id title } } }`,
          { p: projectId },
        );
        return r[list]!.nodes.map((n) => ({
          value: n.id,
          label: `${untitled(n.title, type.toLowerCase())} (${projectTitle})`,
        }));
      });
    }
    case 'Chart':
      return perProject(host, async (projectId, projectTitle) => {
        const r = await host.graphql<{ projectCharts: Array<{ id: string; title: string }> }>(
          'query($p: ID!) { projectCharts(projectId: $p) { id title } }',
          { p: projectId },
        );
        return r.projectCharts.map((c) => ({ value: c.id, label: `${c.title} (${projectTitle})` }));
      });
    case 'Tag': {
      type Board = {
        title: string;
        ungroupedTags: Array<{ id: string; title: string }>;
        groups: Array<{ tags: Array<{ id: string; title: string }> }>;
      };
      const tagsOf = (boards: Board[]) =>
        boards.flatMap((b) =>
          [...b.ungroupedTags, ...b.groups.flatMap((g) => g.tags)].map((t) => ({
            value: t.id,
            label: `${t.title} (${b.title})`,
          })),
        );
      const board = 'title ungroupedTags { id title } groups { tags { id title } }';
      const workspace = tagsOf((await host.graphql<{ tagBoards: Board[] }>(`{ tagBoards { ${board} } }`)).tagBoards);
      const projects = await perProject(host, async (projectId) =>
        tagsOf(
          (
            await host.graphql<{ tagBoards: Board[] }>(`query($p: ID!) { tagBoards(projectId: $p) { ${board} } }`, {
              p: projectId,
            })
          ).tagBoards,
        ),
      );
      return [...workspace, ...projects];
    }
    case 'MultiSelect': {
      type Field = { label: string; type: string; options: Array<{ id: string; label: string }> };
      const sets = await Promise.all(
        (['NOTE', 'INSIGHT'] as const).map(
          async (objectType) =>
            (
              await host.graphql<{ fieldSet: Field[] }>(
                'query($t: FieldObjectType!) { fieldSet(objectType: $t) { label type options { id label } } }',
                { t: objectType },
              )
            ).fieldSet,
        ),
      );
      return sets
        .flat()
        .flatMap((f) =>
          f.type === 'SELECT' ? f.options.map((o) => ({ value: o.id, label: `${f.label}: ${o.label}` })) : [],
        );
    }
  }
}
