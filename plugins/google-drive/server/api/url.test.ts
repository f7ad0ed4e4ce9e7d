import { describe, expect, it } from 'vitest';
import { DriveUrlError } from './errors.ts';
import { parseDriveUrl, type DriveLink } from './url.ts';

const ID = '1aBcD_eFgH-iJkLmNoPqRsTuVwXyZ0123';

const accepted: Array<[string, DriveLink]> = [
  [`https://drive.google.com/file/d/${ID}/view?usp=sharing`, { id: ID, kind: 'file' }],
  [`https://drive.google.com/file/d/${ID}`, { id: ID, kind: 'file' }],
  [`https://drive.google.com/file/d/${ID}/edit`, { id: ID, kind: 'file' }],
  [`https://drive.google.com/file/u/1/d/${ID}/view`, { id: ID, kind: 'file' }],
  [`https://drive.google.com/a/example.com/file/d/${ID}/view`, { id: ID, kind: 'file' }],
  [`https://drive.google.com/open?id=${ID}`, { id: ID, kind: 'file' }],
  [`https://drive.google.com/open?usp=sharing&id=${ID}`, { id: ID, kind: 'file' }],
  [`https://drive.google.com/uc?id=${ID}&export=download`, { id: ID, kind: 'file' }],
  [`https://drive.google.com/uc?export=download&id=${ID}`, { id: ID, kind: 'file' }],
  [`https://drive.usercontent.google.com/download?id=${ID}&export=download`, { id: ID, kind: 'file' }],
  [`https://docs.google.com/document/d/${ID}/edit`, { id: ID, kind: 'document' }],
  [`https://docs.google.com/document/d/${ID}/edit?tab=t.0#heading=h.abc`, { id: ID, kind: 'document' }],
  [`https://docs.google.com/document/u/0/d/${ID}/`, { id: ID, kind: 'document' }],
  [`https://docs.google.com/a/example.com/document/d/${ID}/edit`, { id: ID, kind: 'document' }],
  [`https://docs.google.com/spreadsheets/d/${ID}/edit#gid=0`, { id: ID, kind: 'spreadsheet' }],
  [`https://docs.google.com/presentation/d/${ID}/present`, { id: ID, kind: 'presentation' }],
  [`https://drive.google.com/drive/folders/${ID}`, { id: ID, kind: 'folder' }],
  [`https://drive.google.com/drive/u/2/folders/${ID}?usp=sharing`, { id: ID, kind: 'folder' }],
  [`  https://DRIVE.GOOGLE.COM/file/d/${ID}/view  `, { id: ID, kind: 'file' }],
  [`http://drive.google.com/file/d/${ID}/view`, { id: ID, kind: 'file' }],
];

const refused = [
  '',
  'not a url',
  `drive.google.com/file/d/${ID}`,
  `ftp://drive.google.com/file/d/${ID}`,
  `javascript:alert("${ID}")`,
  `https://evil.example/file/d/${ID}`,
  `https://drive.google.com.evil.example/file/d/${ID}`,
  `https://notdrive.google.com/file/d/${ID}`,
  `https://user:pass@drive.google.com/file/d/${ID}`,
  `https://drive.google.com:8443/file/d/${ID}`,
  'https://drive.google.com/',
  'https://drive.google.com/drive/my-drive',
  'https://drive.google.com/file/d/',
  'https://drive.google.com/open',
  'https://drive.google.com/file/d/short/view',
  `https://drive.google.com/file/d/${ID}!!/view`,
  `https://docs.google.com/forms/d/${ID}/viewform`,
  'https://docs.google.com/document/d/e/2PACX-1vRabcdefghijklmnop/pub',
  `https://docs.google.com/document/${ID}`,
  `https://drive.usercontent.google.com/elsewhere?id=${ID}`,
  `https://www.google.com/url?q=https://drive.google.com/file/d/${ID}`,
];

describe('parseDriveUrl', () => {
  it.each(accepted)('reads %s', (url, expected) => {
    expect(parseDriveUrl(url)).toEqual(expected);
  });

  it.each(refused.map((url) => [url]))('refuses %j with "Not a Google Drive URL"', (url) => {
    expect(() => parseDriveUrl(url)).toThrow(DriveUrlError);
    try {
      parseDriveUrl(url);
    } catch (error) {
      expect((error as Error).message).toBe('Not a Google Drive URL');
    }
  });
});
