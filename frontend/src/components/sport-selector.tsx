import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Check, ChevronDown } from 'lucide-react';

import { cn } from '@/lib/utils';
import { isSport, SPORTS, useSport } from '@/stores/sport';

const menuItemClasses =
  'flex cursor-pointer items-center gap-2 rounded-md px-2 py-2 text-sm outline-none select-none data-[highlighted]:bg-muted';

/** A compact menu for wide screens. */
export function SportMenu({ className }: { className?: string }) {
  const { sport, setSport, option } = useSport();
  const Icon = option.icon;
  // Not modal: a modal menu hides the page with aria-hidden while its links stay focusable.
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        className={cn(
          'inline-flex h-9 items-center gap-2 rounded-lg border border-border bg-surface px-3 text-sm font-medium hover:bg-muted',
          className,
        )}
        aria-label={`Sport: ${option.label}. Change sport`}
      >
        <Icon className="size-4 text-primary" aria-hidden="true" />
        {option.label}
        <ChevronDown className="size-4 text-muted-foreground" aria-hidden="true" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="z-50 min-w-44 rounded-lg border border-border bg-surface p-1 shadow-lg"
        >
          <DropdownMenu.Label className="px-2 py-1.5 text-xs font-semibold text-muted-foreground uppercase">
            Sport
          </DropdownMenu.Label>
          <DropdownMenu.RadioGroup
            value={sport}
            onValueChange={(value) => {
              if (isSport(value)) setSport(value);
            }}
          >
            {SPORTS.map(({ value, label, icon: ItemIcon }) => (
              <DropdownMenu.RadioItem key={value} value={value} className={menuItemClasses}>
                <ItemIcon className="size-4 text-primary" aria-hidden="true" />
                <span className="flex-1">{label}</span>
                <DropdownMenu.ItemIndicator>
                  <Check className="size-4" aria-hidden="true" />
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** Large touch targets for the mobile menu. */
export function SportButtons({
  className,
  onSelect,
}: {
  className?: string;
  onSelect?: () => void;
}) {
  const { sport, setSport } = useSport();
  return (
    <div role="group" aria-label="Sport" className={cn('grid grid-cols-5 gap-2', className)}>
      {SPORTS.map(({ value, label, icon: Icon }) => {
        const selected = value === sport;
        return (
          <button
            key={value}
            type="button"
            aria-pressed={selected}
            onClick={() => {
              setSport(value);
              onSelect?.();
            }}
            className={cn(
              'flex flex-col items-center gap-1 rounded-lg border px-1 py-2 text-[11px] font-medium',
              selected
                ? 'border-primary bg-primary-soft text-primary'
                : 'border-border bg-surface text-foreground hover:bg-muted',
            )}
          >
            <Icon className="size-5" aria-hidden="true" />
            {label}
          </button>
        );
      })}
    </div>
  );
}
