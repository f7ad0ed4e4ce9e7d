/**
 * Words a generated subdomain may not start with (002 §5): generic service words, then the
 * product's own words. A name such as "Admin Tools" would otherwise get admin-tools.example.com.
 */
export const RESERVED_FIRST_WORDS: ReadonlySet<string> = new Set([
  // generic service words
  'admin', 'administrator', 'api', 'app', 'apps', 'assets', 'auth', 'autoconfig', 'autodiscover', 'billing',
  'blog', 'cdn', 'chat', 'cloud', 'console', 'dashboard', 'dev', 'developer', 'developers', 'dns', 'doc', 'docs',
  'download', 'downloads', 'email', 'files', 'ftp', 'git', 'help', 'host', 'image', 'images', 'imap', 'internal',
  'localhost', 'login', 'logout', 'mail', 'media', 'mx', 'ns', 'ns1', 'ns2', 'oauth', 'ping', 'pop', 'pop3',
  'portal', 'preview', 'prod', 'production', 'root', 'secure', 'security', 'server', 'signin', 'signup', 'smtp',
  'sso', 'staging', 'static', 'status', 'support', 'sysadmin', 'system', 'test', 'webmail', 'www',
  // product words
  'fieldbook', 'agents', 'automation', 'callback', 'channels', 'community', 'dashboards', 'embed', 'explore',
  'global', 'insights', 'onboarding', 'recruit', 'search', 'settings', 'shared', 'templates',
]);

/** Words no subdomain may contain anywhere (002 §5 "profane or banned"), matched as whole words. */
export const BANNED_WORDS: ReadonlySet<string> = new Set([
  'anal', 'anus', 'arse', 'arsehole', 'ass', 'asshole', 'bastard', 'bitch', 'bollocks', 'boob', 'boobs', 'bullshit',
  'cock', 'crap', 'cum', 'cunt', 'damn', 'dick', 'dildo', 'dyke', 'fag', 'faggot', 'fuck', 'fucker', 'fucking',
  'jizz', 'kike', 'motherfucker', 'nazi', 'nigga', 'nigger', 'penis', 'piss', 'porn', 'porno', 'pussy', 'rape',
  'retard', 'shit', 'slut', 'spic', 'tits', 'twat', 'vagina', 'wank', 'wanker', 'whore',
  // banned for safety: they invite phishing on our own domain
  'password', 'verify', 'verification', 'phishing', 'paypal',
]);
