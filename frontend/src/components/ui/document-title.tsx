import { APP_NAME } from '@/lib/site';

/** Sets the browser tab's title; React 19 hoists <title> into the document head. */
export function DocumentTitle({ title }: { title?: string }) {
  const text = !title ? APP_NAME : title.includes(APP_NAME) ? title : `${title} · ${APP_NAME}`;
  return <title>{text}</title>;
}
