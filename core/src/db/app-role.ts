/** The role the application connects as: it owns no table and lacks BYPASSRLS. */
export const APP_ROLE = 'fieldbook_app';
