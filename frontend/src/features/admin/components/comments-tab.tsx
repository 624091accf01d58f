import { format } from 'date-fns';
import { Check, X } from 'lucide-react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';

import {
  useCommentsQueue,
  useDecideComment,
  useReportedComments,
  type AdminComment,
} from '../api/comments';

function CommentRow({ comment }: { comment: AdminComment }) {
  const decide = useDecideComment();
  const who = `${comment.author.name} (@${comment.author.username})`;
  return (
    <li
      className="rounded-xl border border-border bg-surface p-4 shadow-sm"
      aria-label={`Comment by ${who}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold">
          <Link to={`/nominations/${comment.nominationId}`} className="underline">
            {comment.playerName}
          </Link>
        </h3>
        <p className="text-xs text-muted-foreground">
          {format(new Date(comment.createdAt), 'd MMM yyyy, HH:mm')}
        </p>
      </div>
      <p className="mt-1 text-sm text-muted-foreground">{who}</p>
      <p className="mt-2 text-sm whitespace-pre-wrap" dir="auto">
        {comment.content}
      </p>
      <ul className="mt-2 flex flex-wrap gap-2 text-xs" aria-label="Why it waits">
        {comment.reasons.map((reason) => (
          <li key={reason.code} className="rounded-full border border-border px-2 py-0.5">
            {reason.label}
            {reason.detail ? `: ${reason.detail}` : ''}
          </li>
        ))}
      </ul>
      {comment.reports.length > 0 && (
        <ul className="mt-2 text-xs text-muted-foreground">
          {comment.reports.map((report, index) => (
            <li key={index}>
              Reported ({report.reason}, weight {report.weight}) {report.text}
            </li>
          ))}
        </ul>
      )}
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <Button
          size="sm"
          disabled={decide.isPending}
          onClick={() => decide.mutate({ id: comment.id, action: 'approve' })}
        >
          <Check aria-hidden="true" />
          Approve comment
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={decide.isPending}
          onClick={() => decide.mutate({ id: comment.id, action: 'remove' })}
        >
          <X aria-hidden="true" />
          Remove comment
        </Button>
      </div>
    </li>
  );
}

/** Held comments with why they wait (new member, watched word, classifier score, reports). */
function HeldComments() {
  const queue = useCommentsQueue();
  if (queue.isPending)
    return <p className="py-6 text-sm text-muted-foreground">Loading comments…</p>;
  if (queue.isError)
    return <p className="py-6 text-sm text-destructive">Could not load the comments.</p>;
  if (queue.data.length === 0) {
    return <p className="py-6 text-sm text-muted-foreground">No comments waiting.</p>;
  }
  return (
    <ul className="mt-4 flex flex-col gap-3" aria-label="Held comments">
      {queue.data.map((comment) => (
        <CommentRow key={comment.id} comment={comment} />
      ))}
    </ul>
  );
}

/** Published comments members reported, below the weight that holds them: still on their
 * page until an admin removes them (approving dismisses the reports). */
function ReportedComments() {
  const reported = useReportedComments();
  if (reported.isPending || reported.isError || reported.data.length === 0) return null;
  return (
    <section aria-labelledby="reported-comments" className="mt-8">
      <h2 id="reported-comments" className="text-lg font-semibold">
        Reported, still published
      </h2>
      <ul className="mt-4 flex flex-col gap-3" aria-label="Reported comments">
        {reported.data.map((comment) => (
          <CommentRow key={comment.id} comment={comment} />
        ))}
      </ul>
    </section>
  );
}

/** The Comments tab: the held comments, then the reported ones still published; live. */
export function CommentsTab() {
  return (
    <>
      <HeldComments />
      <ReportedComments />
    </>
  );
}
