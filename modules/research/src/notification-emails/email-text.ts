/** An email's subject and the lines above the footer every notification email shares. */
export interface EmailText {
  subject: string;
  body: string[];
}
