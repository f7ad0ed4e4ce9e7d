import type { ShareLinkRow } from '@fieldbook/core';
import type { SharePayload } from './payload.ts';

/** A link to one of research's types (ShareObjectType) or to a type another module registered. */
export type ShareRow = ShareLinkRow<string, SharePayload>;
