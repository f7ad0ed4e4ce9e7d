import { z } from 'zod';
import { badInput, validate } from '@fieldbook/core';
import { PROJECT_SECTIONS } from '../projects/limits.ts';

/** A serialised share payload is at most 17000 characters (000 §5, §9). */
export const SHARE_PAYLOAD_MAX = 17_000;

export type ShareSection = (typeof PROJECT_SECTIONS)[number];

/**
 * The options of one link, kept as the client sends them. One key has a meaning on the server:
 * `sections`, the sections the link shows (README, INSIGHTS, HIGHLIGHTS...). Hidden sections are
 * left out of the public view, not merely hidden by the page.
 */
export interface SharePayload {
  sections?: ShareSection[];
  [option: string]: unknown;
}

const payloadSchema = z.record(z.string(), z.unknown(), { error: 'payload must be an object of share options.' }).pipe(
  z.looseObject({
    sections: z
      .array(
        z.enum(PROJECT_SECTIONS, { error: `payload.sections lists sections out of ${PROJECT_SECTIONS.join(', ')}.` }),
        {
          error: `payload.sections lists sections out of ${PROJECT_SECTIONS.join(', ')}.`,
        },
      )
      .optional(),
  }),
);

/** Checks the options of a new link; null or absent means none. The size is checked first. */
export function parseSharePayload(input: unknown): SharePayload {
  if (input === null || input === undefined) return {};
  const size = JSON.stringify(input).length;
  if (size > SHARE_PAYLOAD_MAX) {
    throw badInput(
      'payload',
      `The share payload can be at most ${SHARE_PAYLOAD_MAX} characters once serialised; this one has ${size}.`,
    );
  }
  const parsed = validate(z.object({ payload: payloadSchema }), { payload: input }).payload;
  return parsed as SharePayload;
}

/** Whether the link shows `section`: every section unless the payload lists the ones it shows. */
export function showsSection(payload: SharePayload, section: ShareSection): boolean {
  return !Array.isArray(payload.sections) || payload.sections.includes(section);
}
