import { Page } from '../layout/Page.tsx';
import { ApiTokens } from './SecurityPage.tsx';

/**
 * /settings/user/api-tokens: every member's own API tokens for this workspace, for scripts,
 * integrations and AI assistants over MCP. Admins also see them under Security.
 */
export function ApiTokensPage() {
  return (
    <Page
      title="Your API tokens"
      description="Scripts, integrations and AI assistants (MCP) use Fieldbook as you with these, in this workspace only."
    >
      <ApiTokens />
    </Page>
  );
}
