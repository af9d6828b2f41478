/** Long account names are cut so the text stays short (it is sent at our cost); the cut is marked in GSM-7 (`...`), not `…`, which would need UCS-2. */
const MAX_NAME = 30;

/** The confirmation text sent to a mobile being registered as a sender. */
export function confirmationText(accountName: string, link: string): string {
  const name = accountName.length > MAX_NAME ? `${accountName.slice(0, MAX_NAME - 3).trimEnd()}...` : accountName;
  return `${name} asked to send SMS from this number. To allow it, open ${link} (valid 24 hours). If you did not expect this, ignore this message.`;
}
