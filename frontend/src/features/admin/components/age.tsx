import { formatDistance } from 'date-fns';
import { useEffect, useState } from 'react';

/** "waiting 5 minutes": how long ago something happened, kept true while it is on screen. */
export function Age({ since, prefix = '' }: { since: string; prefix?: string }) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  const when = new Date(since);
  return (
    <time dateTime={since} title={when.toLocaleString('en-US')}>
      {prefix}
      {formatDistance(when > now ? now : when, now, { addSuffix: !prefix })}
    </time>
  );
}
