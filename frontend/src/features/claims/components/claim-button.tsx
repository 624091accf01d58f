import { UserCheck } from 'lucide-react';
import { useState } from 'react';

import { ActionDialog } from '@/components/ui/action-dialog';
import { Button } from '@/components/ui/button';
import { ChoiceFieldset } from '@/components/ui/choice-fieldset';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';

import { useCreateClaim, type ClaimInput } from '../api/claims';

const RELATIONSHIPS = [
  { value: 'parent_or_guardian', label: "I am the athlete's parent or guardian" },
  { value: 'self', label: 'I am the athlete (16 or over)' },
] as const;

type Relationship = ClaimInput['relationship'];

/**
 * "Claim this profile": the athlete's family (or the athlete from 16) asks to manage the page,
 * with how our moderators can check it.
 */
export function ClaimButton({ playerId, playerName }: { playerId: number; playerName: string }) {
  const [open, setOpen] = useState(false);
  const [relationship, setRelationship] = useState<Relationship | null>(null);
  const [birthYear, setBirthYear] = useState('');
  const [evidence, setEvidence] = useState('');
  const [phone, setPhone] = useState('');
  const [error, setError] = useState<string | null>(null);
  const claim = useCreateClaim(playerId);
  const changeOpen = (next: boolean) => {
    if (!next) {
      setRelationship(null);
      setBirthYear('');
      setEvidence('');
      setPhone('');
      setError(null);
    }
    setOpen(next);
  };
  const year = Number(birthYear);
  const ready =
    relationship !== null && Number.isInteger(year) && year > 1900 && evidence.trim() !== '';

  return (
    <ActionDialog
      open={open}
      onOpenChange={changeOpen}
      trigger={
        <Button variant="outline">
          <UserCheck aria-hidden="true" />
          Claim this profile
        </Button>
      }
      title={`Claim the profile of ${playerName}`}
      description="A parent or guardian claims the profile of an athlete under 16; from 16 the athlete claims it. Our moderators check every claim."
      actionLabel="Send claim"
      actionDisabled={!ready}
      pending={claim.isPending}
      onAction={() => {
        if (!ready || relationship === null) return;
        setError(null);
        claim.mutate(
          {
            relationship,
            birthYear: year,
            evidence: evidence.trim(),
            contactPhone: phone.trim() || null,
          },
          {
            onSuccess: () => changeOpen(false),
            onError: (failure) =>
              setError(errorMessage(failure, 'Failed to send the claim. Please try again.')),
          },
        );
      }}
    >
      <ChoiceFieldset
        legend="Who are you?"
        name="claim-relationship"
        choices={RELATIONSHIPS}
        value={relationship}
        onChange={setRelationship}
      />
      <Field id="claim-birth-year" label="The athlete's year of birth" className="mt-4">
        <Input
          id="claim-birth-year"
          inputMode="numeric"
          value={birthYear}
          onChange={(event) => setBirthYear(event.target.value.replace(/\D/g, '').slice(0, 4))}
        />
      </Field>
      <Field
        id="claim-evidence"
        label="How can we check it?"
        hint="A club roster link, a coach who can vouch (at most 1,000 characters)."
        className="mt-4"
      >
        <Textarea
          id="claim-evidence"
          rows={3}
          maxLength={1000}
          value={evidence}
          onChange={(event) => setEvidence(event.target.value)}
        />
      </Field>
      <Field id="claim-phone" label="Contact phone (optional)" className="mt-4">
        <Input
          id="claim-phone"
          type="tel"
          maxLength={32}
          value={phone}
          onChange={(event) => setPhone(event.target.value)}
        />
      </Field>
      {error && (
        <p role="alert" className="mt-3 text-sm text-destructive">
          {error}
        </p>
      )}
    </ActionDialog>
  );
}
