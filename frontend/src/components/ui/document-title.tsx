import { APP_NAME } from '@/lib/site';

/** Sets the browser tab's title; React 19 hoists <title> into the document head. */
export function DocumentTitle({ title }: { title?: string }) {
  return <title>{title ? `${title} · ${APP_NAME}` : APP_NAME}</title>;
}
