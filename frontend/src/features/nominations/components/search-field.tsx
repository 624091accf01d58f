import { Search, X } from 'lucide-react';
import { useId } from 'react';

import { Spinner } from '@/components/ui/spinner';

/** The search box of the nominations list. */
export function SearchField({
  value,
  onChange,
  searching,
  error = null,
}: {
  value: string;
  onChange: (value: string) => void;
  searching: boolean;
  /** Why the text cannot be searched as typed (too long), shown under the box. */
  error?: string | null;
}) {
  const errorId = useId();
  return (
    <div>
      <div className="relative">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden="true"
        />
        <input
          type="search"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          placeholder="Search by name, position, nationality, club or nominator"
          aria-label="Search nominations"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          enterKeyHint="search"
          className="h-11 w-full rounded-lg border border-border bg-surface pr-10 pl-9 text-base shadow-xs placeholder:text-muted-foreground focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-ring/40 sm:text-sm [&::-webkit-search-cancel-button]:hidden"
        />
        <span className="absolute top-1/2 right-2 -translate-y-1/2">
          {searching ? (
            <Spinner className="mr-1 size-4 text-muted-foreground" label="Searching" />
          ) : (
            value && (
              <button
                type="button"
                onClick={() => onChange('')}
                aria-label="Clear search"
                className="flex rounded-md p-1 text-muted-foreground hover:bg-muted hover:text-foreground"
              >
                <X className="size-4" aria-hidden="true" />
              </button>
            )
          )}
        </span>
      </div>
      {error && (
        <p id={errorId} role="alert" className="mt-1.5 text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
