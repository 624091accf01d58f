import { useEffect, useId, useState, type InputHTMLAttributes } from 'react';

import type { FieldControl } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { countOf } from '@/lib/display';

import { useClubSuggestions } from '../api/clubs';
import { useDebouncedValue } from '../hooks/use-debounced-value';

type ClubComboboxProps = {
  control: FieldControl;
  /** The sport whose clubs are suggested. */
  sport: string;
  /** The text typed so far (the form's value). */
  value: string;
  /** The form's registration of the field (name, onChange, onBlur, ref). */
  inputProps: InputHTMLAttributes<HTMLInputElement> & { ref?: React.Ref<HTMLInputElement> };
  /** A suggestion chosen: the field takes its name. */
  onPick: (name: string) => void;
};

/**
 * The club field: free text, with the sport's existing clubs suggested as it is typed (the
 * ARIA combobox pattern: arrows move through the list, Enter picks, Escape closes the list
 * before the dialog). A club not in the list is typed as it is and becomes a new club.
 */
export function ClubCombobox({ control, sport, value, inputProps, onPick }: ClubComboboxProps) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const typed = useDebouncedValue(value, 200);
  // A cleared field asks nothing, even before the debounce catches up.
  const suggestions = useClubSuggestions(sport, value.trim() ? typed : '', open);
  const options = open ? (suggestions.data ?? []) : [];
  const expanded = options.length > 0;

  // Escape closes the list first: the dialog's own Escape listener (on the document, in the
  // capture phase) must not hear that one.
  useEffect(() => {
    if (!expanded) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        setOpen(false);
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [expanded]);

  const pick = (name: string) => {
    onPick(name);
    setOpen(false);
    setActive(-1);
  };

  return (
    <div className="relative">
      <Input
        {...control}
        {...inputProps}
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
        onChange={(event) => {
          void inputProps.onChange?.(event);
          setOpen(true);
          setActive(-1);
        }}
        onBlur={(event) => {
          void inputProps.onBlur?.(event);
          setOpen(false);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            setOpen(true);
            if (options.length > 0) setActive((i) => (i + 1) % options.length);
          } else if (event.key === 'ArrowUp' && expanded) {
            event.preventDefault();
            setActive((i) => (i <= 0 ? options.length - 1 : i - 1));
          } else if (event.key === 'Enter' && expanded && active >= 0) {
            event.preventDefault();
            pick(options[active].name);
          }
        }}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Existing clubs"
        hidden={!expanded}
        className="absolute z-50 mt-1 max-h-60 w-full overflow-auto rounded-lg border border-border bg-surface py-1 shadow-lg"
      >
        {options.map((option, index) => (
          <li
            key={option.id}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className={`cursor-pointer px-3 py-2 text-sm ${index === active ? 'bg-muted' : ''}`}
            // Picked on mouse down, before the input's blur closes the list.
            onMouseDown={(event) => {
              event.preventDefault();
              pick(option.name);
            }}
          >
            {option.name}{' '}
            <span className="text-muted-foreground">({countOf(option.playerCount, 'player')})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
