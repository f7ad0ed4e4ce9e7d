import { definePlugin } from '@fieldbook/extensions-sdk/server';
import { IMPORT_JOB, importJob, importMutation } from './import.ts';
import { googleDriveOAuth } from './oauth.ts';

/**
 * Google Drive: each person connects their own Drive and imports a Doc, Sheet, Slides deck or
 * text file into a project as a note, from a link.
 */
export default definePlugin({
  id: 'google-drive',
  name: 'Google Drive',
  version: '1.0.0',
  sdk: '^1',
  description: 'Import Google Docs, Sheets, Slides and text files from Google Drive as notes.',
  // www.googleapis.com and oauth2.googleapis.com; accounts.google.com is only visited by the browser.
  permissions: ['notes:write', 'projects:read', 'egress:googleapis.com', 'egress:google.com'],
  // Where web/index.tsx draws: the app loads the web part only on pages with one of these slots.
  web: { slots: ['project.settings.panel/v1'] },
  config: {
    clientId: {
      env: 'GOOGLE_DRIVE_CLIENT_ID',
      description: 'OAuth client ID of the Google Cloud project',
      required: true,
    },
    clientSecret: {
      env: 'GOOGLE_DRIVE_CLIENT_SECRET',
      description: 'OAuth client secret of the Google Cloud project',
      required: true,
    },
    apiUrl: {
      env: 'GOOGLE_DRIVE_API_URL',
      description: 'Google APIs root (Drive v3 lives under /drive/v3)',
      default: 'https://www.googleapis.com',
      url: true,
    },
    authorizeUrl: {
      env: 'GOOGLE_OAUTH_URL',
      description: 'Google OAuth consent page',
      default: 'https://accounts.google.com/o/oauth2/v2/auth',
      url: true,
    },
    tokenUrl: {
      env: 'GOOGLE_TOKEN_URL',
      description: 'Google OAuth token endpoint',
      default: 'https://oauth2.googleapis.com/token',
      url: true,
    },
  },
  server: {
    oauth: googleDriveOAuth,
    graphql: {
      typeDefs: /* GraphQL */ `
        """An import from Google Drive, queued: the note appears in the project shortly."""
        type GoogleDriveImport {
          queued: Boolean!
          """The Drive id of the file being imported."""
          fileId: String!
        }
        extend type Mutation {
          """Imports the Google Drive file a link points at into a project, as the signed-in person."""
          googleDriveImport(projectId: ID!, url: String!): GoogleDriveImport!
        }
      `,
      mutation: {
        googleDriveImport: (args, ctx) => importMutation(args, ctx),
      },
    },
    jobs: {
      [IMPORT_JOB]: { handler: importJob, retryLimit: 3 },
    },
  },
});
