import { Badge } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';

/** Who made a note, an insight or a highlight, as the API says (`createdBy`). */
export interface Maker {
  kind: 'PERSON' | 'AI' | 'AGENT';
  label: string | null;
  model: string | null;
}

export const MAKER_FIELDS = 'createdBy { kind label model }';

/**
 * "Written by AI" beside an item AI or an agent made; nothing for a person's. The words say it,
 * not the colour alone; the title adds who (an agent or an AI feature) and the model.
 */
export function WrittenByAi({ maker, size = 'sm' }: { maker: Maker | null | undefined; size?: 'xs' | 'sm' }) {
  if (!maker || maker.kind === 'PERSON' || !maker.label) return null;
  const who = maker.kind === 'AGENT' ? 'An agent' : 'AI';
  const detail = `${who} wrote this${maker.model ? ` with ${maker.model}` : ''}`;
  return (
    <Badge
      size={size}
      variant="light"
      color="violet"
      tt="none"
      leftSection={<IconSparkles size={12} aria-hidden />}
      title={detail}
      data-testid="written-by-ai"
    >
      {maker.label}
    </Badge>
  );
}
