import { describe, expect, it } from 'vitest';
import { decodeEntities, parseSnippet } from './snippet.ts';

describe('search snippets', () => {
  it('splits marked matches from the text around them', () => {
    expect(parseSnippet('about <mark>pricing</mark> and <mark>plans</mark>')).toEqual([
      { text: 'about ', marked: false },
      { text: 'pricing', marked: true },
      { text: ' and ', marked: false },
      { text: 'plans', marked: true },
    ]);
  });

  it('decodes what the server escaped, so it reads as typed and never as markup', () => {
    expect(parseSnippet('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; <mark>Zo&#235;</mark>')).toEqual([
      { text: '<script>alert("x")</script> & ', marked: false },
      { text: 'Zoë', marked: true },
    ]);
  });

  it('keeps any other tag as visible text', () => {
    expect(parseSnippet('<b>bold</b> <img src=x onerror=alert(1)>')).toEqual([
      { text: '<b>bold</b> <img src=x onerror=alert(1)>', marked: false },
    ]);
  });

  it('leaves unknown or out-of-range entities alone', () => {
    expect(decodeEntities('&bogus; &#x110000; &#39;')).toBe("&bogus; &#x110000; '");
  });
});
