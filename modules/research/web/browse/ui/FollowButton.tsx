import { Button, Tooltip } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconBell, IconBellRinging } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { notifyError } from './layout.tsx';

type FollowType = 'PROJECT' | 'INSIGHT' | 'TAG';
const GET = `query BrowseFollow($t: FollowObjectType!, $id: ID!) { follow(objectType: $t, objectId: $id) { frequency } }`;
const FOLLOW = `mutation BrowseFollowObject($input: FollowInput!) { followObject(input: $input) { frequency } }`;
const UNFOLLOW = `mutation BrowseUnfollowObject($t: FollowObjectType!, $id: ID!) { unfollowObject(objectType: $t, objectId: $id) }`;
const HOW_OFTEN = { DAILY: 'daily', WEEKLY: 'weekly', MONTHLY: 'monthly' } as const;

/**
 * Follows a project, insight or tag for the viewer: its comments and published insights reach
 * them in the app and in an email digest (weekly unless changed in notification settings).
 */
export function FollowButton({ type, id, what }: { type: FollowType; id: string; what: string }) {
  const { graphql } = useFieldbook();
  const [frequency, setFrequency] = useState<keyof typeof HOW_OFTEN | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let stale = false;
    graphql<{ follow: { frequency: keyof typeof HOW_OFTEN } | null }>(GET, { t: type, id })
      .then((r) => !stale && setFrequency(r.follow?.frequency ?? null))
      .catch(() => !stale && setFrequency(null));
    return () => {
      stale = true;
    };
  }, [graphql, type, id]);
  const following = Boolean(frequency);
  const toggle = async () => {
    setBusy(true);
    try {
      if (following) {
        await graphql(UNFOLLOW, { t: type, id });
        setFrequency(null);
      } else {
        const r = await graphql<{ followObject: { frequency: keyof typeof HOW_OFTEN } }>(FOLLOW, { input: { objectType: type, objectId: id } });
        setFrequency(r.followObject.frequency);
      }
    } catch (err) {
      notifyError(err, following ? `You still follow this ${what}` : `The ${what} was not followed`);
    } finally {
      setBusy(false);
    }
  };
  const hint = following ? `You get its news in the app and a ${HOW_OFTEN[frequency!]} email digest. Click to unfollow.` : `Get its comments and published insights in the app and by email digest`;
  return (
    <Tooltip label={hint} multiline w={260}>
      <Button
        variant={following ? 'light' : 'default'}
        size="sm"
        leftSection={following ? <IconBellRinging size={16} aria-hidden /> : <IconBell size={16} aria-hidden />}
        aria-pressed={following}
        loading={busy || frequency === undefined}
        onClick={() => void toggle()}
      >
        {following ? 'Following' : 'Follow'}
      </Button>
    </Tooltip>
  );
}
