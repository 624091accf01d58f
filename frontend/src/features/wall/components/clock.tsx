import { useNow } from '@/hooks/use-now';

const time = new Intl.DateTimeFormat('en-US', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});
const date = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric' });

/** The time of day, for a wall people glance at from across a room. */
export function Clock() {
  const now = useNow(1000);
  return (
    <div className="text-right leading-none">
      <time
        dateTime={now.toISOString()}
        className="block text-[clamp(1.25rem,min(4.5vh,7vw),4rem)] font-black tabular-nums"
      >
        {time.format(now)}
      </time>
      <span className="mt-[0.5vh] block text-[clamp(0.7rem,1.7vh,1.5rem)] text-slate-400">
        {date.format(now)}
      </span>
    </div>
  );
}
