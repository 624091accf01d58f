import { Award } from 'lucide-react';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { ApiError, errorMessage } from '@/lib/api-client';
import { LIMITS } from '@/lib/api/limits';

import { useAskVerification, useMyVerification } from '../api/verification';

const limits = LIMITS.CoachVerificationIn;
const STATUS_WORDS: Record<string, string> = {
  pending: 'Your request is waiting for a moderator.',
  approved: 'You are a verified coach: your name shows the "Verified coach" badge.',
  rejected: 'Your last request was not approved. You can ask again.',
  withdrawn: 'Your verified coach badge was withdrawn. You can ask again.',
};

/**
 * "Verified coach" in Settings: the member asks to be verified with their club or school, their
 * role there and evidence (a roster or staff page, a work email confirmed by a signed link).
 */
export function CoachVerificationSection() {
  const mine = useMyVerification();
  const ask = useAskVerification();
  const [organization, setOrganization] = useState('');
  const [roleTitle, setRoleTitle] = useState('');
  const [evidenceUrl, setEvidenceUrl] = useState('');
  const [workEmail, setWorkEmail] = useState('');
  const current = mine.data;
  const open = current?.status === 'pending' || current?.status === 'approved';
  const fields = ask.error instanceof ApiError ? (ask.error.fields ?? {}) : {};
  const formError =
    ask.error && Object.keys(fields).length === 0
      ? errorMessage(ask.error, 'Failed to send the request. Please try again.')
      : null;

  return (
    <section
      aria-labelledby="coach-verification"
      className="rounded-xl border border-border bg-surface p-5 shadow-sm sm:p-6"
    >
      <h2 id="coach-verification" className="flex items-center gap-2 text-lg font-semibold">
        <Award className="size-5 text-success" aria-hidden="true" />
        Verified coach
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Coaches verified by our moderators can endorse players.
      </p>
      {current && (
        <p className="mt-3 text-sm" role="status">
          {STATUS_WORDS[current.status]}
          {current.status === 'pending' && current.workEmail && !current.emailConfirmed && (
            <> Open the link we emailed to {current.workEmail}.</>
          )}
          {current.decisionReason && <> Reason: {current.decisionReason}</>}
        </p>
      )}
      {!open && (
        <form
          className="mt-4 grid gap-4 sm:grid-cols-2"
          onSubmit={(event) => {
            event.preventDefault();
            ask.mutate({
              organization: organization.trim(),
              roleTitle: roleTitle.trim(),
              evidenceUrl: evidenceUrl.trim() || null,
              workEmail: workEmail.trim() || null,
            });
          }}
        >
          <Field id="coach-organization" label="Club or school" error={fields.organization}>
            <Input
              id="coach-organization"
              maxLength={limits.organization.maxLength}
              value={organization}
              onChange={(event) => setOrganization(event.target.value)}
              required
            />
          </Field>
          <Field id="coach-role" label="Your role there" error={fields.roleTitle}>
            <Input
              id="coach-role"
              maxLength={limits.roleTitle.maxLength}
              value={roleTitle}
              onChange={(event) => setRoleTitle(event.target.value)}
              required
            />
          </Field>
          <Field id="coach-evidence" label="Roster or staff page (link)" error={fields.evidenceUrl}>
            <Input
              id="coach-evidence"
              type="url"
              maxLength={limits.evidenceUrl.maxLength}
              value={evidenceUrl}
              onChange={(event) => setEvidenceUrl(event.target.value)}
            />
          </Field>
          <Field
            id="coach-email"
            label="Work email"
            hint="We send a link to confirm it."
            error={fields.workEmail}
          >
            <Input
              id="coach-email"
              type="email"
              maxLength={limits.workEmail.maxLength}
              value={workEmail}
              onChange={(event) => setWorkEmail(event.target.value)}
            />
          </Field>
          {formError && (
            <p className="text-sm text-destructive sm:col-span-2" role="alert">
              {formError}
            </p>
          )}
          <div className="sm:col-span-2">
            <Button type="submit" disabled={ask.isPending}>
              Ask to be verified
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
