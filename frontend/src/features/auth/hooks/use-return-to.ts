import { useSearchParams } from 'react-router';

// A tab or newline inside a URL is dropped by the URL parser ("/\t/evil.example" becomes
// "//evil.example"): no control character is accepted anywhere.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Only same-origin paths are accepted, so a crafted link cannot send a user elsewhere. */
export function safeReturnTo(value: string | null | undefined, fallback = '/'): string {
  if (
    !value ||
    !value.startsWith('/') ||
    value.startsWith('//') ||
    value.startsWith('/\\') ||
    CONTROL.test(value)
  ) {
    return fallback;
  }
  return value;
}

/** The `returnTo` query parameter of the login and register pages, `/` by default. */
export function useReturnTo(): string {
  const [searchParams] = useSearchParams();
  return safeReturnTo(searchParams.get('returnTo'));
}

export function withReturnTo(path: '/login' | '/register', returnTo: string): string {
  return returnTo === '/' ? path : `${path}?returnTo=${encodeURIComponent(returnTo)}`;
}
