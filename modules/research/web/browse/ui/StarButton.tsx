import { ActionIcon, Tooltip } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconStar, IconStarFilled } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { notifyError } from './layout.tsx';

const SET_STARRED = `mutation BrowseSetStarred($type: StarrableType!, $id: ID!, $starred: Boolean!) { setStarred(type: $type, id: $id, starred: $starred) }`;

/** Stars a project, note or insight for the viewer (their own list; nobody else sees it). */
export function StarButton({
  type,
  id,
  starred: initial,
  what,
}: {
  type: 'PROJECT' | 'NOTE' | 'INSIGHT';
  id: string;
  starred: boolean;
  what: string;
}) {
  const { graphql } = useFieldbook();
  const [starred, setStarred] = useState(initial);
  const [busy, setBusy] = useState(false);
  useEffect(() => setStarred(initial), [initial]);
  const toggle = async () => {
    const next = !starred;
    setBusy(true);
    setStarred(next);
    try {
      await graphql(SET_STARRED, { type, id, starred: next });
    } catch (err) {
      setStarred(!next);
      notifyError(err, next ? `The ${what} was not starred` : `The star was not removed`);
    } finally {
      setBusy(false);
    }
  };
  const label = starred ? `Unstar this ${what}` : `Star this ${what}`;
  return (
    <Tooltip label={label}>
      <ActionIcon
        variant="default"
        size="lg"
        aria-label={label}
        aria-pressed={starred}
        disabled={busy}
        onClick={() => void toggle()}
      >
        {starred ? <IconStarFilled size={18} aria-hidden color="#e8a200" /> : <IconStar size={18} aria-hidden />}
      </ActionIcon>
    </Tooltip>
  );
}
