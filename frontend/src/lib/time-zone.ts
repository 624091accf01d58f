/**
 * The browser's IANA time zone ("Europe/Paris"), sent at registration and sign-in so the
 * server keeps a teen account's quiet hours in the member's own evening; '' when the browser
 * does not say.
 */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone ?? '';
  } catch {
    return '';
  }
}
