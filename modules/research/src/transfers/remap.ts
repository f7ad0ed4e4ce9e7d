/** Pure rewrites an import applies to exported content. */

const MENTION = /@\[([^\]\n]{1,100})\]\(([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\)/gi;

/**
 * Points the mentions of a comment body (`@[Name](userId)`) at the members of the importing
 * workspace: a mention of someone who is a member there names their id there; anyone else
 * stays as plain `@Name`. Answers the body and the ids mentioned, in order, once each.
 */
export function remapMentions(
  body: string,
  userIds: ReadonlyMap<string, string | null>,
): { body: string; mentioned: string[] } {
  const mentioned: string[] = [];
  const out = body.replace(MENTION, (_m, name: string, id: string) => {
    const target = userIds.get(id.toLowerCase()) ?? null;
    if (!target) return `@${name}`;
    if (!mentioned.includes(target)) mentioned.push(target);
    return `@[${name}](${target})`;
  });
  return { body: out, mentioned };
}
