import { Vote } from 'lucide-react';
import { Link } from 'react-router';

import { cn } from '@/lib/utils';

import { APP_NAME } from '@/lib/site';

export function Brand({ className }: { className?: string }) {
  return (
    <Link to="/" className={cn('flex items-center gap-2 font-extrabold tracking-tight', className)}>
      <span className="flex size-9 items-center justify-center rounded-lg bg-primary text-primary-foreground shadow-sm">
        <Vote className="size-5" aria-hidden="true" />
      </span>
      <span className="text-lg">{APP_NAME}</span>
    </Link>
  );
}
