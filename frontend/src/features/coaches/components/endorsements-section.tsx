import { format } from 'date-fns';
import { Award, Eye, EyeOff, Star, Trash2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';

import { CoachBadge } from '@/components/coach-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { NativeSelect, Textarea } from '@/components/ui/input';
import { LIMITS } from '@/lib/api/limits';

import {
  useEndorse,
  useEndorsementAction,
  useEndorsements,
  type Endorsement,
} from '../api/endorsements';

const CONTENT_MAX = LIMITS.EndorsementIn.content.maxLength;
const cardClasses = 'rounded-xl border border-border bg-surface p-5 shadow-sm sm:p-6';

/** The rating as stars, with its words for a screen reader. */
function Rating({ value }: { value: number }) {
  return (
    <span className="inline-flex items-center gap-0.5" title={`Rated ${value} of 5`}>
      <span className="sr-only">Rated {value} of 5</span>
      {Array.from({ length: 5 }, (_, index) => (
        <Star
          key={index}
          aria-hidden="true"
          className={`size-4 ${index < value ? 'fill-current text-warning' : 'text-muted-foreground'}`}
        />
      ))}
    </span>
  );
}

function EndorsementItem({
  endorsement,
  playerId,
  viewerId,
  canHide,
  renderReport,
}: {
  endorsement: Endorsement;
  playerId: number;
  viewerId: number | undefined;
  canHide: boolean;
  renderReport?: (endorsement: Endorsement) => ReactNode;
}) {
  const action = useEndorsementAction(playerId);
  const { coach } = endorsement;
  const mine = viewerId === coach.id;
  return (
    <li
      className="rounded-lg border border-border p-4"
      aria-label={`Endorsement by ${coach.name}`}
      data-testid="endorsement"
    >
      <div className="flex flex-wrap items-center gap-2">
        <Link to={`/scout/${coach.id}`} className="font-semibold hover:underline">
          {coach.name}
        </Link>
        <CoachBadge userId={coach.id} />
        {endorsement.rating != null && <Rating value={endorsement.rating} />}
        {endorsement.hidden && <Badge variant="yellow">Hidden from the page</Badge>}
      </div>
      <p className="text-sm text-muted-foreground" dir="auto">
        {coach.roleTitle} · {coach.organization}
      </p>
      <p className="mt-2 text-sm break-words whitespace-pre-line" dir="auto">
        {endorsement.content}
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
        <time dateTime={endorsement.createdAt}>
          {format(new Date(endorsement.createdAt), 'MMMM d, yyyy')}
        </time>
        {canHide && (
          <Button
            variant="ghost"
            size="sm"
            disabled={action.isPending}
            onClick={() =>
              action.mutate({ id: endorsement.id, action: endorsement.hidden ? 'show' : 'hide' })
            }
          >
            {endorsement.hidden ? <Eye aria-hidden="true" /> : <EyeOff aria-hidden="true" />}
            {endorsement.hidden ? 'Show on the page' : 'Hide from the page'}
          </Button>
        )}
        {mine && (
          <Button
            variant="ghost"
            size="sm"
            disabled={action.isPending}
            onClick={() => action.mutate({ id: endorsement.id, action: 'delete' })}
          >
            <Trash2 aria-hidden="true" />
            Delete
          </Button>
        )}
        {!mine && renderReport?.(endorsement)}
      </div>
    </li>
  );
}

function EndorseForm({ playerId, mine }: { playerId: number; mine: Endorsement | undefined }) {
  const [content, setContent] = useState(mine?.content ?? '');
  const [rating, setRating] = useState(String(mine?.rating ?? 4));
  const endorse = useEndorse(playerId);
  const trimmed = content.trim();
  return (
    <form
      className="mt-4 flex flex-col gap-3 border-t border-border pt-4"
      aria-label={mine ? 'Edit your endorsement' : 'Endorse this player'}
      onSubmit={(event) => {
        event.preventDefault();
        if (!trimmed) return;
        endorse.mutate(
          { content: trimmed, rating: Number(rating) },
          { onSuccess: () => mine === undefined && setContent('') },
        );
      }}
    >
      <Field
        id="endorsement-content"
        label={mine ? 'Your endorsement' : 'Endorse as a verified coach'}
        hint={`${content.length.toLocaleString('en-US')} / ${CONTENT_MAX.toLocaleString('en-US')}`}
      >
        <Textarea
          id="endorsement-content"
          rows={3}
          maxLength={CONTENT_MAX}
          value={content}
          onChange={(event) => setContent(event.target.value)}
        />
      </Field>
      <div className="flex flex-wrap items-end gap-3">
        <Field id="endorsement-rating" label="Rating (seen by coaches, the family and admins)">
          <NativeSelect
            id="endorsement-rating"
            value={rating}
            onChange={(event) => setRating(event.target.value)}
          >
            {[5, 4, 3, 2, 1].map((value) => (
              <option key={value} value={value}>
                {value} of 5
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Button type="submit" disabled={!trimmed || endorse.isPending}>
          <Award aria-hidden="true" />
          {mine ? 'Save endorsement' : 'Endorse'}
        </Button>
      </div>
    </form>
  );
}

/**
 * The Endorsements section of a player's page: what verified coaches say of the player (the
 * rating only for readers who may see it), the coach's own form, the claimant's Hide; live.
 */
export function EndorsementsSection({
  playerId,
  viewerId,
  renderReport,
}: {
  playerId: number;
  viewerId: number | undefined;
  renderReport?: (endorsement: Endorsement) => ReactNode;
}) {
  const query = useEndorsements(playerId);
  const data = query.data;
  const mine = data?.items.find((item) => item.coach.id === viewerId);
  return (
    <section aria-labelledby="endorsements" className={`${cardClasses} mt-6`}>
      <h2 id="endorsements" className="text-lg font-semibold">
        Endorsements
        {data != null && <span className="text-muted-foreground"> ({data.count})</span>}
      </h2>
      {query.isPending && <p className="mt-3 text-sm text-muted-foreground">Loading…</p>}
      {query.isError && (
        <p className="mt-3 text-sm text-destructive">Could not load the endorsements.</p>
      )}
      {data != null && data.items.length === 0 && (
        <p className="mt-3 text-sm text-muted-foreground">
          No verified coach has endorsed this player yet.
        </p>
      )}
      {data != null && data.items.length > 0 && (
        <ul className="mt-4 flex flex-col gap-3">
          {data.items.map((endorsement) => (
            <EndorsementItem
              key={endorsement.id}
              endorsement={endorsement}
              playerId={playerId}
              viewerId={viewerId}
              canHide={data.canHide}
              renderReport={renderReport}
            />
          ))}
        </ul>
      )}
      {data?.canEndorse && <EndorseForm key={mine?.id ?? 'new'} playerId={playerId} mine={mine} />}
    </section>
  );
}
