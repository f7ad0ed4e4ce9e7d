import type { Knex } from 'knex';

/**
 * Whether texts shown to the public (theme titles made from the words of feedback, on a shared
 * dashboard) name someone of the workspace: a person of its directory or a member, by a word of
 * their name, their email or the part of it before the @. Case is ignored. A short common word
 * that is also someone's name makes a text count as naming them: a title is withheld rather than
 * a name shown.
 */

const EMAIL = /[^\s@<>()[\]{}"',;:]+@[^\s@<>()[\]{}"',;:]+\.[^\s@<>()[\]{}"',;:.]+/gu;
// Names and texts are cut into words the same way (see NAME_SPLIT below).
const SPLIT = /[\s,.;:()"!?/[\]{}<>|]+/u;
const NAME_SPLIT = `[\\s,.;:()"!?/\\[\\]{}<>|]+`;
const EDGES = /^['’`-]+|['’`-]+$/gu;

/** The emails and words of a text that could be someone's, lowercased. */
export function nameTokens(text: string): string[] {
  const lower = text.toLowerCase();
  const emails = lower.match(EMAIL) ?? [];
  const rest = emails.reduce((t, e) => t.replace(e, ' '), lower);
  const words = rest
    .split(SPLIT)
    .map((w) => w.replace(EDGES, ''))
    .filter((w) => w.length >= 2 && !/^\d+$/.test(w));
  return [...new Set([...emails, ...words])];
}

/** For each text, whether it names a person or a member of the workspace (one read for all). */
export async function textsNamingPeople(
  trx: Knex.Transaction,
  workspaceId: string,
  texts: readonly string[],
): Promise<boolean[]> {
  const tokensOf = texts.map(nameTokens);
  const all = [...new Set(tokensOf.flat())];
  if (!all.length) return texts.map(() => false);
  const { rows } = (await trx.raw(
    `with who as (
       select p.name, p.email from people p where p.workspace_id = :ws and p.deleted_at is null
       union all
       select u.name, u.email from workspace_members m join users u on u.id = m.user_id where m.workspace_id = :ws
     ), said as (
       select unnest(regexp_split_to_array(lower(name), :split)) as token from who
       union all select lower(email) from who where email is not null
       union all select split_part(lower(email), '@', 1) from who where email is not null
     )
     select distinct t.token from unnest(cast(:tokens as text[])) as t(token) join said s on s.token = t.token`,
    { ws: workspaceId, split: NAME_SPLIT, tokens: all },
  )) as { rows: Array<{ token: string }> };
  const named = new Set(rows.map((r) => r.token));
  return tokensOf.map((tokens) => tokens.some((t) => named.has(t)));
}
