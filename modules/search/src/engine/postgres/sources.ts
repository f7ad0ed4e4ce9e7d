import type { SearchResultType } from '../../filters/index.ts';

/**
 * How each result type reads from the research tables. Every fragment here is fixed SQL (no
 * value of a request ever goes into it); the item is `t`, its project `p` (left joined, so it is
 * null for items outside projects).
 *
 * Attribute kinds say how predicates compare them (see predicate-sql.ts):
 * text, id (a uuid as text), ids (text[]), number, boolean, time (timestamptz).
 */
export type AttributeKind = 'text' | 'id' | 'ids' | 'number' | 'boolean' | 'time';

export interface AttributeSql {
  kind: AttributeKind;
  sql: string;
  /**
   * For `ids`: the condition "one of `:ids` (a uuid[]) is among them", written against the link
   * table itself so its indexes serve "one of" filters instead of building the list for every row.
   * It must hold exactly when the list `sql` holds one of the ids, and be true or false, never
   * null: it is used bare (not wrapped in coalesce) so the planner can turn it into an index scan
   * or a semi-join.
   */
  anyOf?: string;
}

/** Where `anyOf` takes the ids. */
export const ANY_OF_IDS = ':ids';

export interface Source {
  type: SearchResultType;
  from: string;
  /** Out of the trash, and in a project out of the trash. */
  live: string;
  /** The item's project id (uuid), or null; the access filter is applied to it. */
  projectId: string;
  /** The item a hit belongs under (a highlight's note), or null. */
  parentId: string;
  /** Whether an item without a project is visible to every member (folders, people, workspace tags). */
  outsideProjects: boolean;
  title: string;
  /** Plain text shown in the snippet; null when the type has only a title. */
  content: string | null;
  vector: string;
  /** Lower-cased unaccented texts typo-tolerant matching compares with (trigram indexed). */
  fuzzy: string[];
  attributes: Readonly<Record<string, AttributeSql>>;
  /** The object type custom field values are stored under, when the type has custom fields. */
  valuesOf: 'NOTE' | 'INSIGHT' | 'PERSON' | null;
}

const text = (sql: string): AttributeSql => ({ kind: 'text', sql });
/** An id; with `column` (a uuid column never null), "one of" compares the uuids themselves, so indexes on it serve. */
const id = (sql: string, column?: string): AttributeSql => ({
  kind: 'id',
  sql: `(${sql})::text`,
  ...(column === undefined ? {} : { anyOf: `${column} = any(:ids)` }),
});
const ids = (sql: string, anyOf?: string): AttributeSql => ({
  kind: 'ids',
  sql: `array(${sql})`,
  ...(anyOf === undefined ? {} : { anyOf }),
});
const number = (sql: string): AttributeSql => ({ kind: 'number', sql });
const bool = (sql: string): AttributeSql => ({ kind: 'boolean', sql });
const time = (sql: string): AttributeSql => ({ kind: 'time', sql });

const stamps = { createdAt: time('t.created_at'), updatedAt: time('t.updated_at') };

/** A folder and every folder above it: an item "in a folder" is in it or in one of its subfolders. */
const foldersOf = (category: string): AttributeSql =>
  ids(`with recursive up(id, parent_id) as (
      select c.id, c.parent_id from project_categories c where c.id = ${category}
      union select c.id, c.parent_id from project_categories c join up on c.id = up.parent_id
    ) select up.id::text from up`);

const starredBy = (type: string): AttributeSql =>
  ids(
    `select s.user_id::text from stars s where s.object_type = '${type}' and s.object_id = t.id`,
    `exists (select 1 from stars s where s.object_type = '${type}' and s.object_id = t.id and s.user_id = any(:ids))`,
  );
const editors = ids(
  `select u::text from unnest(array[t.created_by, t.updated_by]) u where u is not null`,
  `coalesce(t.created_by = any(:ids) or t.updated_by = any(:ids), false)`,
);
const creator = ids(
  `select t.created_by::text where t.created_by is not null`,
  `coalesce(t.created_by = any(:ids), false)`,
);

/** Live highlights of a note (`note_id`) or cited by an insight (`insight_id`). */
const highlightsWhere = (column: 'note_id' | 'insight_id') =>
  `from highlights h where h.${column} = t.id and h.deleted_at is null`;
const tagsWhere = (column: 'note_id' | 'insight_id') =>
  `from highlight_tags ht join highlights h on h.id = ht.highlight_id join tags tg on tg.id = ht.tag_id where h.${column} = t.id and h.deleted_at is null`;

const researchItem = (type: 'NOTE' | 'INSIGHT', column: 'note_id' | 'insight_id'): Record<string, AttributeSql> => ({
  ...stamps,
  id: id('t.id', 't.id'),
  projectId: id('t.project_id', 't.project_id'),
  folderIds: foldersOf('p.category_id'),
  title: text('t.title'),
  content: text('t.content_text'),
  starredBy: starredBy(type),
  contributorIds: editors,
  authorIds: creator,
  highlightIds: ids(
    `select h.id::text ${highlightsWhere(column)}`,
    `exists (select 1 ${highlightsWhere(column)} and h.id = any(:ids))`,
  ),
  highlightCount: number(`(select count(*) ${highlightsWhere(column)})`),
  tagIds: ids(
    `select distinct tg.id::text ${tagsWhere(column)}`,
    `exists (select 1 ${tagsWhere(column)} and ht.tag_id = any(:ids))`,
  ),
  tagGroupIds: ids(
    `select distinct tg.group_id::text ${tagsWhere(column)} and tg.group_id is not null`,
    `exists (select 1 ${tagsWhere(column)} and tg.group_id = any(:ids))`,
  ),
  tagBoardIds: ids(
    `select distinct tg.board_id::text ${tagsWhere(column)}`,
    `exists (select 1 ${tagsWhere(column)} and tg.board_id = any(:ids))`,
  ),
});

const inLiveProject = 'p.deleted_at is null';

const SOURCES: Partial<Record<SearchResultType, Source>> = {
  PROJECT: {
    type: 'PROJECT',
    from: 'projects t join projects p on p.id = t.id',
    live: 't.deleted_at is null',
    projectId: 't.id',
    parentId: 'null::uuid',
    outsideProjects: false,
    title: 't.title',
    content: 'fb_rich_text(t.readme)',
    vector: 't.search_vector',
    fuzzy: ['fb_search_text(t.title)'],
    attributes: {
      ...stamps,
      id: id('t.id', 't.id'),
      title: text('t.title'),
      content: text('fb_rich_text(t.readme)'),
      archived: bool(`t.status = 'ARCHIVED'`),
      starredBy: starredBy('PROJECT'),
      contributorIds: editors,
      folderIds: foldersOf('t.category_id'),
    },
    valuesOf: null,
  },
  PROJECT_CATEGORY: {
    type: 'PROJECT_CATEGORY',
    from: 'project_categories t left join projects p on false',
    live: 't.deleted_at is null',
    projectId: 'null::uuid',
    parentId: 'null::uuid',
    outsideProjects: true,
    title: 't.title',
    content: null,
    vector: 't.search_vector',
    fuzzy: ['fb_search_text(t.title)'],
    attributes: { ...stamps, id: id('t.id', 't.id'), title: text('t.title') },
    valuesOf: null,
  },
  TAG: {
    type: 'TAG',
    from: 'tags t join tag_boards b on b.id = t.board_id left join projects p on p.id = b.project_id',
    live: `(b.project_id is null or ${inLiveProject})`,
    projectId: 'b.project_id',
    parentId: 'null::uuid',
    outsideProjects: true,
    title: 't.title',
    content: null,
    vector: 't.search_vector',
    fuzzy: ['fb_search_text(t.title)'],
    attributes: {
      ...stamps,
      id: id('t.id', 't.id'),
      projectId: id('b.project_id'),
      folderIds: foldersOf('p.category_id'),
      title: text('t.title'),
      tagGroupId: id('t.group_id'),
      tagBoardIds: ids('select t.board_id::text', 't.board_id = any(:ids)'),
      contributorIds: creator,
      highlightCount: number(
        '(select count(*) from highlight_tags ht join highlights h on h.id = ht.highlight_id where ht.tag_id = t.id and h.deleted_at is null)',
      ),
    },
    valuesOf: null,
  },
  NOTE: {
    type: 'NOTE',
    from: 'notes t join projects p on p.id = t.project_id',
    live: `t.deleted_at is null and ${inLiveProject}`,
    projectId: 't.project_id',
    parentId: 'null::uuid',
    outsideProjects: false,
    title: 't.title',
    content: 't.content_text',
    vector: 't.search_vector',
    fuzzy: ['fb_search_text(t.title)', 'fb_search_text(t.content_text)'],
    attributes: {
      ...researchItem('NOTE', 'note_id'),
      archived: bool('t.archived'),
      insightIds: ids(
        `select distinct h.insight_id::text ${highlightsWhere('note_id')} and h.insight_id is not null`,
        `exists (select 1 ${highlightsWhere('note_id')} and h.insight_id = any(:ids))`,
      ),
      personIds: ids(
        'select np.person_id::text from note_people np join people pe on pe.id = np.person_id where np.note_id = t.id and pe.deleted_at is null',
        'exists (select 1 from note_people np join people pe on pe.id = np.person_id where np.note_id = t.id and pe.deleted_at is null and np.person_id = any(:ids))',
      ),
    },
    valuesOf: 'NOTE',
  },
  INSIGHT: {
    type: 'INSIGHT',
    from: 'insights t join projects p on p.id = t.project_id',
    live: `t.deleted_at is null and ${inLiveProject}`,
    projectId: 't.project_id',
    parentId: 'null::uuid',
    outsideProjects: false,
    title: 't.title',
    content: 't.content_text',
    vector: 't.search_vector',
    fuzzy: ['fb_search_text(t.title)', 'fb_search_text(t.content_text)'],
    attributes: {
      ...researchItem('INSIGHT', 'insight_id'),
      published: bool('t.published_at is not null'),
      noteIds: ids(
        `select distinct h.note_id::text ${highlightsWhere('insight_id')} and h.note_id is not null`,
        `exists (select 1 ${highlightsWhere('insight_id')} and h.note_id = any(:ids))`,
      ),
      personIds: ids(
        `select distinct hp.person_id::text from highlight_people hp join highlights h on h.id = hp.highlight_id join people pe on pe.id = hp.person_id
         where h.insight_id = t.id and h.deleted_at is null and pe.deleted_at is null`,
        `exists (select 1 from highlight_people hp join highlights h on h.id = hp.highlight_id join people pe on pe.id = hp.person_id
         where h.insight_id = t.id and h.deleted_at is null and pe.deleted_at is null and hp.person_id = any(:ids))`,
      ),
    },
    valuesOf: 'INSIGHT',
  },
  HIGHLIGHT: {
    type: 'HIGHLIGHT',
    from: 'highlights t join projects p on p.id = t.project_id',
    // Out of the trash, and not in a trashed note: an anti-join against the few trashed notes
    // (partial index notes_trashed) rather than a join with every note.
    live: `t.deleted_at is null and ${inLiveProject} and not exists (select 1 from notes n where n.id = t.note_id and n.deleted_at is not null)`,
    projectId: 't.project_id',
    parentId: 't.note_id',
    outsideProjects: false,
    // A highlight has no title of its own: it shows the start of its text.
    title: 'left(t.text, 200)',
    content: 't.text',
    vector: 't.search_vector',
    fuzzy: ['fb_search_text(t.text)'],
    attributes: {
      ...stamps,
      id: id('t.id', 't.id'),
      projectId: id('t.project_id', 't.project_id'),
      folderIds: foldersOf('p.category_id'),
      content: text('t.text'),
      noteId: id('t.note_id'),
      insightIds: ids(
        'select t.insight_id::text where t.insight_id is not null',
        'coalesce(t.insight_id = any(:ids), false)',
      ),
      contributorIds: creator,
      // The highlight's tags as kept on its row (migration 0088), so its index serves "one of".
      tagIds: ids('select unnest(t.tag_ids)::text', 't.tag_ids && :ids'),
      tagGroupIds: ids(
        'select tg.group_id::text from highlight_tags ht join tags tg on tg.id = ht.tag_id where ht.highlight_id = t.id and tg.group_id is not null',
        'exists (select 1 from highlight_tags ht join tags tg on tg.id = ht.tag_id where ht.highlight_id = t.id and tg.group_id = any(:ids))',
      ),
      tagBoardIds: ids(
        'select distinct tg.board_id::text from highlight_tags ht join tags tg on tg.id = ht.tag_id where ht.highlight_id = t.id',
        'exists (select 1 from highlight_tags ht join tags tg on tg.id = ht.tag_id where ht.highlight_id = t.id and tg.board_id = any(:ids))',
      ),
      personIds: ids(
        'select hp.person_id::text from highlight_people hp join people pe on pe.id = hp.person_id where hp.highlight_id = t.id and pe.deleted_at is null',
        'exists (select 1 from highlight_people hp join people pe on pe.id = hp.person_id where hp.highlight_id = t.id and pe.deleted_at is null and hp.person_id = any(:ids))',
      ),
    },
    valuesOf: null,
  },
  PERSON: {
    type: 'PERSON',
    from: 'people t left join projects p on false',
    live: 't.deleted_at is null',
    projectId: 'null::uuid',
    parentId: 'null::uuid',
    outsideProjects: true,
    title: 't.name',
    content: null,
    vector: 't.search_vector',
    fuzzy: ['fb_search_text(t.name)'],
    attributes: {
      ...stamps,
      id: id('t.id', 't.id'),
      name: text('t.name'),
      noteIds: ids(
        'select np.note_id::text from note_people np join notes n on n.id = np.note_id where np.person_id = t.id and n.deleted_at is null',
        'exists (select 1 from note_people np join notes n on n.id = np.note_id where np.person_id = t.id and n.deleted_at is null and np.note_id = any(:ids))',
      ),
    },
    valuesOf: 'PERSON',
  },
  // Channels of the channels module (its migration gives them a search vector). They live outside
  // projects and folders, so every member sees them, and a folder filter matches none yet.
  CHANNEL: {
    type: 'CHANNEL',
    from: 'channels t left join projects p on false',
    live: 't.deleted_at is null',
    projectId: 'null::uuid',
    parentId: 'null::uuid',
    outsideProjects: true,
    title: 't.name',
    content: 't.description',
    vector: 't.search_vector',
    fuzzy: ['fb_search_text(t.name)'],
    attributes: {
      ...stamps,
      id: id('t.id', 't.id'),
      title: text('t.name'),
      content: text('t.description'),
      folderIds: ids('select null::text where false', 'false'),
    },
    valuesOf: null,
  },
  // Data points of live channels. Their hit's title is the start of their text; the channel is
  // the item a hit belongs under. Typo-tolerant matching compares their first 50 characters (002 §9).
  CHANNEL_DATAPOINT: {
    type: 'CHANNEL_DATAPOINT',
    from: 'channel_datapoints t join channels c on c.id = t.channel_id left join projects p on false',
    live: 'c.deleted_at is null',
    projectId: 'null::uuid',
    parentId: 't.channel_id',
    outsideProjects: true,
    title: 'left(t.content, 200)',
    content: 't.content',
    vector: 't.search_vector',
    fuzzy: ['fb_search_text(left(t.content, 50))'],
    attributes: {
      ...stamps,
      id: id('t.id', 't.id'),
      content: text('t.content'),
      channelId: id('t.channel_id', 't.channel_id'),
      personIds: ids(
        'select t.person_id::text where t.person_id is not null',
        'coalesce(t.person_id = any(:ids), false)',
      ),
    },
    valuesOf: null,
  },
  // Current themes of live channels (retired ones still open by id, but are not found). A theme
  // belongs under its channel; its content is its summary, and it is AI-made when a model wrote that.
  THEME: {
    type: 'THEME',
    from: 'channel_themes t join channels c on c.id = t.channel_id left join projects p on false',
    live: 'c.deleted_at is null and t.retired_at is null',
    projectId: 'null::uuid',
    parentId: 't.channel_id',
    outsideProjects: true,
    title: 't.title',
    content: 't.summary',
    vector: 't.search_vector',
    fuzzy: ['fb_search_text(t.title)'],
    attributes: {
      ...stamps,
      id: id('t.id', 't.id'),
      title: text('t.title'),
      content: text('t.summary'),
      channelId: id('t.channel_id', 't.channel_id'),
      aiGenerated: bool('t.summary_model is not null'),
    },
    valuesOf: null,
  },
};

/** The source of a result type. */
export const sourceFor = (type: SearchResultType): Source | undefined => SOURCES[type];

/** The type's own table: every `from` starts with it, as `t`. */
export const tableOf = (source: Source): string => source.from.slice(0, source.from.indexOf(' '));

/** The type's `from` after its own table (`t`): the joins. */
export const joinsOf = (source: Source): string => source.from.slice(source.from.indexOf(' t') + 2);

/**
 * The type's own table as `t`, reading about `percent` % of its pages, the same ones for the same
 * table every time (a fixed seed).
 */
export function sampledTable(source: Source, percent: number): string {
  const share = Math.min(100, Math.max(percent, 0.000001)).toFixed(6);
  return `${tableOf(source)} t tablesample system (${share}) repeatable (0)`;
}
