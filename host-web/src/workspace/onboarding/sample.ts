import type { GraphQLClient } from '../../api/graphql-client.ts';

/**
 * The sample a new workspace may start from: one interview note with three tagged highlights,
 * enough to see highlights, tags and a chart at work. It is ordinary content, named as a sample,
 * which its owner deletes like any other note.
 */
export const SAMPLE_NOTE_TITLE = 'Sample interview (you can delete it)';
const PARAGRAPHS = [
  'Dana, product manager at a 40-person software company, on how her team uses customer feedback.',
  'Pricing is confusing for new teams. Onboarding took us a week. I love how fast search is.',
];
/** Highlights as [paragraph, phrase, tag]; offsets are found in the note's text. */
const HIGHLIGHTS: ReadonlyArray<[number, string, string]> = [
  [1, 'Pricing is confusing for new teams.', 'Pain points'],
  [1, 'Onboarding took us a week.', 'Pain points'],
  [1, 'I love how fast search is.', 'Delights'],
];

type Request = GraphQLClient['request'];

/** Offsets count the note's text with paragraphs joined by one newline, as the server does. */
function offsetOf(phrase: string, paragraph: number): number {
  const before = PARAGRAPHS.slice(0, paragraph).reduce((n, p) => n + p.length + 1, 0);
  return before + PARAGRAPHS[paragraph]!.indexOf(phrase);
}

export async function createSample(request: Request, projectId: string): Promise<string> {
  const content = {
    type: 'doc',
    content: PARAGRAPHS.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
  };
  const { createNote } = await request<{ createNote: { id: string } }>(
    'mutation($p: ID!, $t: String, $c: JSON) { createNote(input: { projectId: $p, title: $t, content: $c }) { id } }',
    {
      p: projectId,
      t: SAMPLE_NOTE_TITLE,
      c: content,
    },
  );
  const { createTagBoard } = await request<{ createTagBoard: { id: string } }>(
    'mutation($p: ID) { createTagBoard(input: { projectId: $p, title: "Sample tags" }) { id } }',
    { p: projectId },
  );
  const tags = new Map<string, string>();
  for (const [paragraph, phrase, tagTitle] of HIGHLIGHTS) {
    if (!tags.has(tagTitle)) {
      const { createTag } = await request<{ createTag: { id: string } }>(
        'mutation($b: ID!, $t: String!) { createTag(input: { boardId: $b, title: $t }) { id } }',
        { b: createTagBoard.id, t: tagTitle },
      );
      tags.set(tagTitle, createTag.id);
    }
    const start = offsetOf(phrase, paragraph);
    const { createHighlight } = await request<{ createHighlight: { id: string } }>(
      'mutation($n: ID!, $s: Int!, $e: Int!) { createHighlight(input: { noteId: $n, startOffset: $s, endOffset: $e }) { id } }',
      {
        n: createNote.id,
        s: start,
        e: start + phrase.length,
      },
    );
    await request('mutation($h: ID!, $t: [ID!]!) { tagHighlight(highlightId: $h, tagIds: $t) { id } }', {
      h: createHighlight.id,
      t: [tags.get(tagTitle)],
    });
  }
  return createNote.id;
}
