import { useId, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { countOf } from '@/lib/display';

import { useClubSearch, useMergeClubs } from '../api/clubs';
import type { Club } from '../api/types';

/**
 * An admin's merge of duplicate clubs into this one: search the sport's clubs, tick the
 * duplicates, merge (their players, nominations and followers move here; the log keeps it).
 */
export function MergeClubs({ club }: { club: Club }) {
  const [q, setQ] = useState('');
  const [chosen, setChosen] = useState<number[]>([]);
  const search = useClubSearch(club.sport, q);
  const merge = useMergeClubs(club.id);
  const headingId = useId();
  const others = (search.data ?? []).filter((candidate) => candidate.id !== club.id);
  const toggle = (id: number) =>
    setChosen((ids) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]));
  return (
    <Card className="p-5" aria-labelledby={headingId} role="region">
      <h2 id={headingId} className="text-lg font-semibold">
        Merge duplicate clubs
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        The chosen clubs’ players, nominations and followers move to {club.name}; their names then
        find this club. The merge is in the moderation log.
      </p>
      <form
        className="mt-4 flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (chosen.length === 0) return;
          merge.mutate(chosen, { onSuccess: () => setChosen([]) });
        }}
      >
        <Field id="merge-club-search" label="Find duplicates">
          <Input
            id="merge-club-search"
            autoComplete="off"
            value={q}
            onChange={(event) => setQ(event.target.value)}
            placeholder="Type part of a club's name"
          />
        </Field>
        {others.length > 0 && (
          <fieldset>
            <legend className="sr-only">Clubs to merge into {club.name}</legend>
            <ul className="flex flex-col gap-1">
              {others.map((candidate) => (
                <li key={candidate.id}>
                  <label className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      checked={chosen.includes(candidate.id)}
                      onChange={() => toggle(candidate.id)}
                    />
                    {candidate.name} ({countOf(candidate.playerCount, 'player')})
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        )}
        <div>
          <Button type="submit" disabled={chosen.length === 0} loading={merge.isPending}>
            Merge into {club.name}
          </Button>
        </div>
      </form>
    </Card>
  );
}
