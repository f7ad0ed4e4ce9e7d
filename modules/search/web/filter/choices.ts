import { createContext, useContext, useEffect, useState } from 'react';
import type { MultiselectOperandType } from '../../src/filters/index.ts';
import { Q } from '../api.ts';

/** One choice of a multiselect: the id the filter keeps and the words shown. */
export interface Choice {
  value: string;
  label: string;
  /** A second line, e.g. a project or an email. */
  hint?: string;
}

type Graphql = <T>(query: string, variables?: Record<string, unknown>) => Promise<T>;

/** Multiselects whose choices are found by typing (there can be thousands). */
export const SEARCHED: Partial<Record<MultiselectOperandType, 'NOTE' | 'INSIGHT' | 'HIGHLIGHT'>> = {
  noteMultiselect: 'NOTE',
  insightMultiselect: 'INSIGHT',
  highlightMultiselect: 'HIGHLIGHT',
};

/** The two special users of 000 §3, first in the user list. */
const SPECIAL_USERS: Choice[] = [
  { value: 'me', label: 'Me' },
  { value: 'unassigned', label: 'No one (unassigned)' },
];

interface TagBoard {
  id: string;
  title: string;
  groups: Array<{ id: string; title: string }>;
  tags: Array<{ id: string; title: string }>;
}

async function loadFixed(graphql: Graphql, type: MultiselectOperandType): Promise<Choice[]> {
  switch (type) {
    case 'projectMultiselect':
      return (await graphql<{ projects: Array<{ id: string; title: string }> }>(Q.projects)).projects.map((p) => ({
        value: p.id,
        label: p.title,
      }));
    case 'folderMultiselect':
      return (await graphql<{ folders: Array<{ id: string; title: string; path: string }> }>(Q.folders)).folders.map(
        (f) => ({
          value: f.id,
          label: f.title,
          hint: f.path && f.path !== f.title ? f.path : undefined,
        }),
      );
    case 'tagMultiselect':
    case 'tagGroupMultiselect':
    case 'tagBoardMultiselect': {
      const boards = (await graphql<{ allTagBoards: TagBoard[] }>(Q.tagBoards)).allTagBoards;
      if (type === 'tagBoardMultiselect') return boards.map((b) => ({ value: b.id, label: b.title }));
      if (type === 'tagGroupMultiselect')
        return boards.flatMap((b) => b.groups.map((g) => ({ value: g.id, label: g.title, hint: b.title })));
      return boards.flatMap((b) => b.tags.map((t) => ({ value: t.id, label: t.title, hint: b.title })));
    }
    case 'personMultiselect':
      return (
        await graphql<{ people: { nodes: Array<{ id: string; name: string; email: string | null }> } }>(Q.people, {})
      ).people.nodes.map((p) => ({
        value: p.id,
        label: p.name || p.email || 'Unnamed person',
        hint: p.name && p.email ? p.email : undefined,
      }));
    case 'userMultiselect': {
      const members = (
        await graphql<{ members: { nodes: Array<{ user: { id: string; name: string; email: string } }> } }>(Q.members)
      ).members.nodes;
      return [
        ...SPECIAL_USERS,
        ...members.map((m) => ({
          value: m.user.id,
          label: m.user.name || m.user.email,
          hint: m.user.name ? m.user.email : undefined,
        })),
      ];
    }
    default:
      return [];
  }
}

/**
 * Choices loaded once per screen and shared by every form using the same operand type, plus the
 * labels of items found by typing, so a chosen note keeps its title after the search moves on.
 */
export class ChoiceCache {
  private fixed = new Map<MultiselectOperandType, Promise<Choice[]>>();
  readonly found = new Map<string, Choice>();

  constructor(readonly graphql: Graphql) {}

  fixedChoices(type: MultiselectOperandType): Promise<Choice[]> {
    let pending = this.fixed.get(type);
    if (!pending) {
      pending = loadFixed(this.graphql, type);
      pending.catch(() => this.fixed.delete(type));
      this.fixed.set(type, pending);
    }
    return pending;
  }

  async search(type: 'NOTE' | 'INSIGHT' | 'HIGHLIGHT', text: string): Promise<Choice[]> {
    const input: Record<string, unknown> = {
      resultTypes: [type],
      limit: 30,
      sort: [{ field: 'Updated', direction: 'DESC' }],
    };
    if (text.trim()) {
      input.query = text.trim();
      input.sort = [{ field: 'Relevance', direction: 'DESC' }];
    }
    const { search } = await this.graphql<{
      search: { hits: Array<{ id: string; title: string; projectTitle: string | null }> };
    }>(Q.pick, { input });
    const choices = search.hits.map((h) => ({
      value: h.id,
      label: h.title || 'Untitled',
      hint: h.projectTitle ?? undefined,
    }));
    for (const c of choices) this.found.set(c.value, c);
    return choices;
  }
}

export const ChoiceContext = createContext<ChoiceCache | null>(null);

export function useChoiceCache(): ChoiceCache {
  const cache = useContext(ChoiceContext);
  if (!cache) throw new Error('useChoiceCache needs a ChoiceContext.');
  return cache;
}

/** The fixed choices of an operand type, loading on first use. */
export function useFixedChoices(type: MultiselectOperandType | null): {
  choices: Choice[];
  loading: boolean;
  error: unknown;
} {
  const cache = useChoiceCache();
  const [state, setState] = useState<{ choices: Choice[]; loading: boolean; error: unknown }>({
    choices: [],
    loading: type !== null,
    error: null,
  });
  useEffect(() => {
    if (!type || SEARCHED[type]) return;
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    cache.fixedChoices(type).then(
      (choices) => live && setState({ choices, loading: false, error: null }),
      (error: unknown) => live && setState({ choices: [], loading: false, error }),
    );
    return () => {
      live = false;
    };
  }, [cache, type]);
  return state;
}
