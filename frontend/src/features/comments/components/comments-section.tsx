import { formatDistanceToNow } from 'date-fns';
import { Flag, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/input';
import { ApiError, errorMessage } from '@/lib/api-client';
import { LIMITS } from '@/lib/api/limits';
import { tooLong } from '@/lib/limits';

import {
  commentsOf,
  useComments,
  useCreateComment,
  useDeleteComment,
  useReportComment,
  type Comment,
} from '../api/comments';

const CONTENT_MAX = LIMITS.CommentIn.content.maxLength;
const BADGE_LABELS: Record<string, string> = {
  admin: 'Moderator',
  nominator: 'Nominator',
  family: 'Family',
  athlete: 'Athlete',
};

type Viewer = { id: number; actsAsAdmin: boolean };

function CommentItem({
  comment,
  nominationId,
  viewer,
}: {
  comment: Comment;
  nominationId: number;
  viewer: Viewer;
}) {
  const remove = useDeleteComment(nominationId);
  const report = useReportComment();
  const mine = comment.author.id === viewer.id;
  const canDelete = comment.canDelete || mine || viewer.actsAsAdmin;
  return (
    <li className="rounded-lg border border-border bg-surface p-3" aria-label="Comment">
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1 text-sm">
        <Link
          to={`/scout/${comment.author.id}`}
          className="font-semibold underline-offset-2 hover:underline"
        >
          {comment.author.name}
        </Link>
        <span className="text-muted-foreground">@{comment.author.username}</span>
        {comment.author.badges.map((badge) => (
          <span key={badge} className="rounded-full border border-border px-2 text-xs">
            {BADGE_LABELS[badge] ?? badge}
          </span>
        ))}
        <time className="text-xs text-muted-foreground" dateTime={comment.createdAt}>
          {formatDistanceToNow(new Date(comment.createdAt), { addSuffix: true })}
        </time>
        {comment.status === 'pending' && (
          <span className="rounded-full bg-warning/20 px-2 text-xs font-medium">
            Awaiting review
          </span>
        )}
      </div>
      <p className="mt-1 text-sm break-words whitespace-pre-wrap" dir="auto">
        {comment.content}
      </p>
      <div className="mt-2 flex gap-2">
        {canDelete && (
          <Button
            size="sm"
            variant="ghost"
            disabled={remove.isPending}
            onClick={() => remove.mutate(comment.id)}
          >
            <Trash2 aria-hidden="true" />
            Delete<span className="sr-only"> comment by {comment.author.name}</span>
          </Button>
        )}
        {!mine && comment.status === 'published' && (
          <Button
            size="sm"
            variant="ghost"
            disabled={report.isPending || report.isSuccess}
            onClick={() => report.mutate(comment.id)}
          >
            <Flag aria-hidden="true" />
            Report<span className="sr-only"> comment by {comment.author.name}</span>
          </Button>
        )}
      </div>
    </li>
  );
}

function CommentForm({ nominationId, minor }: { nominationId: number; minor: boolean }) {
  const [content, setContent] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useCreateComment(nominationId);
  const fieldId = useId();
  const tooLongNow = content.length > CONTENT_MAX;
  const submit = () => {
    const text = content.trim();
    if (!text) return setError('Comment is required');
    if (text.length > CONTENT_MAX) return setError(tooLong('Comment', CONTENT_MAX));
    setError(null);
    create.mutate(text, {
      onSuccess: () => setContent(''),
      onError: (failure) =>
        setError(
          failure instanceof ApiError
            ? failure.message
            : errorMessage(failure, 'Failed to post the comment. Please try again.'),
        ),
    });
  };
  return (
    <form
      className="mt-3 flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label htmlFor={fieldId} className="text-sm font-medium">
        Add a comment
      </label>
      <Textarea
        id={fieldId}
        rows={3}
        value={content}
        aria-invalid={error != null || tooLongNow}
        aria-describedby={`${fieldId}-hint`}
        onChange={(event) => setContent(event.target.value)}
      />
      <p id={`${fieldId}-hint`} className="text-xs text-muted-foreground">
        {content.length}/{CONTENT_MAX} characters.
        {minor && ' Contact details cannot be posted on an athlete’s page.'}
      </p>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      <div>
        <Button type="submit" size="sm" disabled={create.isPending || tooLongNow}>
          Post comment
        </Button>
      </div>
    </form>
  );
}

/**
 * The comments of a nomination, oldest first, live: the form while comments are open, else
 * why they are off; a held comment shows to its author marked "Awaiting review".
 */
export function CommentsSection({
  nominationId,
  viewer,
}: {
  nominationId: number;
  viewer: Viewer;
}) {
  const query = useComments(nominationId);
  const comments = commentsOf(query.data);
  const section = query.data?.pages[0];
  return (
    <section aria-labelledby="comments-heading" className="mt-6 border-t border-border pt-4">
      <h2 id="comments-heading" className="text-lg font-semibold">
        Comments
      </h2>
      {query.isPending && <p className="text-sm text-muted-foreground">Loading comments…</p>}
      {query.isError && <p className="text-sm text-destructive">Could not load the comments.</p>}
      {section && !section.open && (
        <p className="mt-2 text-sm text-muted-foreground">{section.closedReason}</p>
      )}
      {section && (section.open || comments.length > 0) && (
        <>
          {comments.length === 0 ? (
            <p className="mt-2 text-sm text-muted-foreground">No comments yet.</p>
          ) : (
            <ul className="mt-3 flex flex-col gap-2" aria-label="Comments">
              {comments.map((comment) => (
                <CommentItem
                  key={comment.id}
                  comment={comment}
                  nominationId={nominationId}
                  viewer={viewer}
                />
              ))}
            </ul>
          )}
          {query.hasNextPage && (
            <Button
              size="sm"
              variant="outline"
              className="mt-2"
              disabled={query.isFetchingNextPage}
              onClick={() => void query.fetchNextPage()}
            >
              Show more comments
            </Button>
          )}
        </>
      )}
      {section?.open && <CommentForm nominationId={nominationId} minor={section.minor} />}
    </section>
  );
}
