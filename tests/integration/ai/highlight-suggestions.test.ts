import { describe, expect, it } from 'vitest';
import { failure, ok } from '../research/content-support.ts';
import { useAiCorpus } from './corpus.ts';

const c = useAiCorpus();

const FIELDS = 'id noteId startOffset endOffset text reason status highlightId label';
const SUGGEST = `mutation($n: ID!) { suggestHighlights(noteId: $n) { dropped local suggestions { ${FIELDS} } } }`;
const PENDING = `query($n: ID!) { highlightSuggestions(noteId: $n) { ${FIELDS} } }`;
const ACCEPT = `mutation($id: ID!) { acceptHighlightSuggestion(id: $id) { ${FIELDS} } }`;
const REJECT = `mutation($id: ID!) { rejectHighlightSuggestion(id: $id) { ${FIELDS} } }`;
interface Suggestion {
  id: string;
  startOffset: number;
  endOffset: number;
  text: string;
  reason: string | null;
  status: string;
  highlightId: string | null;
  label: string;
}

/** The model picks two true passages, one with a word changed, one invented, and one already highlighted. */
const modelPicks = () => ({
  content: [
    {
      type: 'highlight',
      text: 'The pricing page was confusing because the plans used different words for the same limits.',
      reason: 'Pricing confusion',
    },
    {
      type: 'highlight',
      text: '“What she liked most was how quickly her team could share highlights with clients.”',
      reason: 'Sharing is valued',
    },
    {
      type: 'highlight',
      text: 'The pricing page was baffling because the plans used different words',
      reason: 'altered',
    },
    { type: 'highlight', text: 'She would pay double for a faster onboarding.', reason: 'invented' },
    { type: 'highlight', text: 'the onboarding flow took far too long', reason: 'already a highlight' },
  ]
    .map((o) => JSON.stringify(o))
    .join('\n'),
  usage: { prompt: 90, completion: 60 },
});

describe('suggested highlights', () => {
  let suggestions: Suggestion[] = [];

  it('suggests only passages found word for word in the note and not yet highlighted, counting the others', async () => {
    c.fake.onChat = modelPicks;
    const made = ok(
      await c.f.contributor.gql<{ suggestHighlights: { dropped: number; local: boolean; suggestions: Suggestion[] } }>(
        SUGGEST,
        { n: c.notes.maria },
      ),
    ).suggestHighlights;
    expect(made.local).toBe(false);
    expect(made.dropped).toBe(2);
    suggestions = made.suggestions;
    expect(suggestions.map((s) => s.text)).toEqual([
      'The pricing page was confusing because the plans used different words for the same limits.',
      'What she liked most was how quickly her team could share highlights with clients.',
    ]);
    const { note } = ok(
      await c.f.admin<{ note: { contentText: string } }>(`query($id: ID!) { note(id: $id) { contentText } }`, {
        id: c.notes.maria,
      }),
    );
    for (const s of suggestions) expect(note.contentText.slice(s.startOffset, s.endOffset)).toBe(s.text);
    expect(suggestions[0]).toMatchObject({
      status: 'PENDING',
      reason: 'Pricing confusion',
      label: 'Suggested by AI (fake-chat)',
      highlightId: null,
    });
    // Everyone who can read the note sees what is pending.
    expect(
      ok(
        await c.f.viewer.gql<{ highlightSuggestions: Suggestion[] }>(PENDING, { n: c.notes.maria }),
      ).highlightSuggestions.map((s) => s.id),
    ).toEqual(suggestions.map((s) => s.id));
  });

  it('makes an accepted suggestion a highlight that says AI chose it, once', async () => {
    const accepted = ok(
      await c.f.contributor.gql<{ acceptHighlightSuggestion: Suggestion }>(ACCEPT, { id: suggestions[0]!.id }),
    ).acceptHighlightSuggestion;
    expect(accepted.status).toBe('ACCEPTED');
    const { highlights } = ok(
      await c.f.admin<{ highlights: { nodes: Array<{ id: string; text: string }> } }>(
        `query($n: ID!) { highlights(noteId: $n) { nodes { id text } } }`,
        { n: c.notes.maria },
      ),
    );
    expect(highlights.nodes.filter((h) => h.id === accepted.highlightId)).toEqual([
      { id: accepted.highlightId, text: suggestions[0]!.text },
    ]);
    const provenance = await c.server.fieldbook.db
      .owner('ai_provenance')
      .where({ object_type: 'HIGHLIGHT', object_id: accepted.highlightId })
      .first();
    expect(provenance).toMatchObject({
      model: 'fake-chat',
      prompt_version: 'highlights-v1',
      prompt_tokens: 90,
      completion_tokens: 60,
    });
    expect(failure(await c.f.contributor.gql(ACCEPT, { id: suggestions[0]!.id })).message).toBe(
      'This suggestion was already accepted.',
    );
  });

  it('does not suggest a rejected passage again', async () => {
    expect(
      ok(await c.f.contributor.gql<{ rejectHighlightSuggestion: Suggestion }>(REJECT, { id: suggestions[1]!.id }))
        .rejectHighlightSuggestion.status,
    ).toBe('REJECTED');
    c.fake.onChat = modelPicks;
    const again = ok(
      await c.f.contributor.gql<{ suggestHighlights: { suggestions: Suggestion[] } }>(SUGGEST, { n: c.notes.maria }),
    ).suggestHighlights;
    // One accepted (now a highlight), one rejected: nothing of the model's picks is left to offer.
    expect(again.suggestions).toEqual([]);
  });

  it('lets viewers read but not suggest or decide, and hides a restricted note’s as not found', async () => {
    expect(failure(await c.f.viewer.gql(SUGGEST, { n: c.notes.tom })).message).toBe(
      'Viewers cannot suggest or accept highlights',
    );
    expect(failure(await c.f.contributor.gql(SUGGEST, { n: c.notes.secret })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(failure(await c.f.contributor.gql(PENDING, { n: c.notes.secret })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(failure(await c.f.contributor.gql(SUGGEST, { n: 'not-an-id' })).extensions).toMatchObject({
      errorCode: 'BAD_USER_INPUT',
    });
  });

  it('says how to turn suggestions back on when the workspace set highlights to Off', async () => {
    ok(
      await c.f.admin(`mutation($input: UpdateAiSettingsInput!) { updateAiSettings(input: $input) { enabled } }`, {
        input: { modes: { highlights: 'Off' } },
      }),
    );
    expect(failure(await c.f.contributor.gql(SUGGEST, { n: c.notes.tom })).message).toBe(
      'AI highlights are turned off in this workspace. A workspace admin can set them to Suggest or On in Settings → AI.',
    );
    ok(
      await c.f.admin(`mutation($input: UpdateAiSettingsInput!) { updateAiSettings(input: $input) { enabled } }`, {
        input: { modes: { highlights: 'Suggest' } },
      }),
    );
  });
});
