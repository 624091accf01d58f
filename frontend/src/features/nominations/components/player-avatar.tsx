import { cn } from '@/lib/utils';

/** The player's initial in a coloured disc. */
export function PlayerAvatar({ name, className }: { name: string; className?: string }) {
  const initial = Array.from(name.trim())[0]?.toUpperCase() ?? '?';
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex size-12 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-primary to-purple text-lg font-bold text-white shadow-sm',
        className,
      )}
    >
      {initial}
    </span>
  );
}
