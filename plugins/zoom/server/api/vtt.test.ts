import { describe, expect, it } from 'vitest';
import { parseWebVtt, WebVttError } from './vtt.ts';

const zoomTranscript = [
  'WEBVTT',
  '',
  '1',
  '00:00:01.350 --> 00:00:04.710',
  'Ada Lovelace: Thanks for joining. How do you export data today?',
  '',
  '2',
  '00:00:05.000 --> 00:00:08.120',
  'Grace Hopper: Mostly CSV.',
  '',
  '3',
  '00:00:08.500 --> 00:00:11.000',
  'Grace Hopper: And it times out on big projects.',
  '',
  '4',
  '01:02:03.004 --> 01:02:05.500',
  'Ada Lovelace: Got it.',
  '',
].join('\n');

describe('parseWebVtt', () => {
  it('turns Zoom cues into speaker turns with millisecond times, merging a speaker’s consecutive cues', () => {
    expect(parseWebVtt(zoomTranscript)).toEqual([
      { start: 1350, end: 4710, speaker: 'Ada Lovelace', text: 'Thanks for joining. How do you export data today?' },
      { start: 5000, end: 11000, speaker: 'Grace Hopper', text: 'Mostly CSV. And it times out on big projects.' },
      { start: 3_723_004, end: 3_725_500, speaker: 'Ada Lovelace', text: 'Got it.' },
    ]);
  });

  it('keeps cues apart when asked', () => {
    expect(parseWebVtt(zoomTranscript, { mergeSpeakerTurns: false })).toHaveLength(4);
  });

  it('reads CRLF files with a BOM, header text, NOTE and STYLE blocks, cue settings and no identifiers', () => {
    const vtt = [
      '\uFEFFWEBVTT - exported',
      'Kind: captions',
      '',
      'NOTE this block is ignored',
      'even when it has --> in it',
      '',
      'STYLE',
      '::cue { color: white }',
      '',
      '00:10.000 --> 00:12.500 align:start position:10%',
      'Sam: hello &amp; welcome',
      '',
    ].join('\r\n');
    expect(parseWebVtt(vtt)).toEqual([{ start: 10_000, end: 12_500, speaker: 'Sam', text: 'hello & welcome' }]);
  });

  it('reads <v> voice spans and strips other markup', () => {
    const vtt =
      'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n<v.loud Mary Jane>I <b>love</b> it</v>\n\n00:00:02.000 --> 00:00:03.000\n<v Bob>Me <i>too</i>&#33;\n';
    expect(parseWebVtt(vtt)).toEqual([
      { start: 0, end: 2000, speaker: 'Mary Jane', text: 'I love it' },
      { start: 2000, end: 3000, speaker: 'Bob', text: 'Me too!' },
    ]);
  });

  it('leaves cues without a speaker unnamed and does not merge them', () => {
    const vtt =
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nSo the plan is simple, really: ship it\n\n00:00:01.000 --> 00:00:02.000\nat 10:30 we met\n\n00:00:02.000 --> 00:00:03.000\n2: a numbered line\n\n00:00:03.000 --> 00:00:04.000\nThe thing we keep hearing from the team is this: exports fail\n';
    expect(parseWebVtt(vtt)).toEqual([
      { start: 0, end: 1000, text: 'So the plan is simple, really: ship it' },
      { start: 1000, end: 2000, text: 'at 10:30 we met' },
      { start: 2000, end: 3000, text: '2: a numbered line' },
      { start: 3000, end: 4000, text: 'The thing we keep hearing from the team is this: exports fail' },
    ]);
  });

  it('splits a cue that holds two speakers and joins wrapped lines of one', () => {
    const vtt =
      'WEBVTT\n\n00:00:00.000 --> 00:00:04.000\nAda: Is it slow?\nGrace: Very slow,\nespecially on Mondays.\n';
    expect(parseWebVtt(vtt)).toEqual([
      { start: 0, end: 4000, speaker: 'Ada', text: 'Is it slow?' },
      { start: 0, end: 4000, speaker: 'Grace', text: 'Very slow, especially on Mondays.' },
    ]);
  });

  it('skips cues with broken timings and empty text', () => {
    const vtt =
      'WEBVTT\n\n00:00:05.000 --> 00:00:01.000\nA: backwards\n\n0:0:1 --> 0:0:2\nA: malformed\n\n00:00:01.000 --> 00:00:02.000\n<i></i>\n\n00:00:03.000 --> 00:00:04.000\nA: kept\n';
    expect(parseWebVtt(vtt)).toEqual([{ start: 3000, end: 4000, speaker: 'A', text: 'kept' }]);
  });

  it('answers no turns for an empty transcript', () => {
    expect(parseWebVtt('WEBVTT\n')).toEqual([]);
  });

  it.each([[''], ['1\n00:00:01.000 --> 00:00:02.000\nhi'], ['WEBVTTX\n']])('refuses %j as not WebVTT', (text) => {
    expect(() => parseWebVtt(text)).toThrow(WebVttError);
    expect(() => parseWebVtt(text)).toThrow('Not a WebVTT transcript');
  });
});
