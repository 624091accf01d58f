import { Download, EyeOff, RotateCcw, UserRoundCheck } from 'lucide-react';
import { useId, useState } from 'react';

import { ActionDialog } from '@/components/ui/action-dialog';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/stores/toast';

import {
  downloadPlayerExport,
  useNameAthlete,
  useRemoveProfile,
  useUpdateControls,
  type ControlsInput,
  type PlayerControls,
} from '../api/claims';

type Toggle = keyof Omit<ControlsInput, never> & keyof PlayerControls;

const TOGGLES: { field: Toggle; label: string; hint: string }[] = [
  { field: 'hideClub', label: 'Hide the club', hint: 'From everyone but the moderators.' },
  {
    field: 'hideNationality',
    label: 'Hide the nationality',
    hint: 'From everyone but the moderators.',
  },
  {
    field: 'shareCard',
    label: 'Share card and link previews',
    hint: 'Off: a shared link shows only ScoutVote, never the athlete.',
  },
  {
    field: 'votingOpen',
    label: 'Voting open',
    hint: 'Closed: the nomination stays with its votes, and no one can vote.',
  },
  {
    field: 'commentsOpen',
    label: 'Comments open',
    hint: 'Closed: no one can comment, and the comments are hidden.',
  },
  {
    field: 'indexable',
    label: 'Search engines may list this page',
    hint: 'Off: search engines are asked not to index it.',
  },
];

function ControlSwitch({
  label,
  hint,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  hint: string;
  checked: boolean;
  disabled: boolean;
  onChange: (value: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-start justify-between gap-4">
      <div>
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <p className="text-xs text-muted-foreground">{hint}</p>
      </div>
      <Switch id={id} checked={checked} disabled={disabled} onCheckedChange={onChange} />
    </div>
  );
}

/**
 * From 16, the guardian hands the controls to the athlete: they name the athlete's own account
 * (its year of birth must be the claim's), and the athlete accepts in their settings.
 */
function HandOver({ controls }: { controls: PlayerControls }) {
  const name = useNameAthlete(controls.playerId);
  const [username, setUsername] = useState('');
  const id = useId();
  return (
    <form
      className="mt-5 border-t border-border pt-4"
      onSubmit={(event) => {
        event.preventDefault();
        name.mutate(username.trim().replace(/^@/, ''), { onSuccess: () => setUsername('') });
      }}
    >
      <h3 className="text-sm font-semibold">Hand the controls to the athlete</h3>
      <p className="mt-1 text-xs text-muted-foreground">
        From 16 the athlete may manage their own profile; at 18 your controls end.
        {controls.athlete
          ? ` Invited: @${controls.athlete.username}, who accepts in their settings.`
          : ' Name their ScoutVote account; they accept in their settings.'}
      </p>
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <Field id={id} label="The athlete's username" className="max-w-xs">
          <Input
            id={id}
            maxLength={150}
            value={username}
            onChange={(event) => setUsername(event.target.value)}
          />
        </Field>
        <Button
          type="submit"
          variant="outline"
          disabled={!username.trim()}
          loading={name.isPending}
        >
          <UserRoundCheck aria-hidden="true" />
          Invite the athlete
        </Button>
      </div>
    </form>
  );
}

/**
 * The claimant's controls on the player's page: what strangers see, voting, removing the page
 * (brought back within 30 days) and a download of everything held about the player.
 */
export function PlayerControlsPanel({ controls }: { controls: PlayerControls }) {
  const update = useUpdateControls(controls.playerId);
  const profile = useRemoveProfile(controls.playerId);
  const [confirming, setConfirming] = useState(false);
  const removed = controls.removedAt != null;
  return (
    <section
      aria-labelledby="player-controls"
      className="mt-6 rounded-xl border border-border bg-surface p-5 shadow-sm"
    >
      <h2 id="player-controls" className="text-lg font-semibold">
        Your controls
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        You manage this profile. Changes take effect at once.
      </p>
      <div className="mt-4 flex flex-col gap-4">
        {TOGGLES.map(({ field, label, hint }) => (
          <ControlSwitch
            key={field}
            label={label}
            hint={hint}
            checked={Boolean(controls[field])}
            disabled={update.isPending || removed}
            onChange={(value) => update.mutate({ [field]: value })}
          />
        ))}
      </div>
      {controls.athleteMayHold && !removed && <HandOver controls={controls} />}
      <div className="mt-5 flex flex-wrap gap-2 border-t border-border pt-4">
        <Button
          variant="outline"
          onClick={() =>
            void downloadPlayerExport(controls.playerId).catch((error: unknown) =>
              toast({
                variant: 'destructive',
                title: 'Error',
                description: errorMessage(error, 'Failed to download. Please try again.'),
              }),
            )
          }
        >
          <Download aria-hidden="true" />
          Download everything held
        </Button>
        {removed ? (
          <Button
            variant="outline"
            disabled={profile.isPending}
            onClick={() => profile.mutate('restore')}
          >
            <RotateCcw aria-hidden="true" />
            Bring the profile back
          </Button>
        ) : (
          <ActionDialog
            open={confirming}
            onOpenChange={setConfirming}
            alert
            trigger={
              <Button variant="outline">
                <EyeOff aria-hidden="true" />
                Remove the profile
              </Button>
            }
            title="Remove this profile?"
            description="It disappears from the site at once. You can bring it back within 30 days."
            actionLabel="Remove the profile"
            actionVariant="destructive"
            pending={profile.isPending}
            onAction={() => profile.mutate('remove', { onSettled: () => setConfirming(false) })}
          />
        )}
      </div>
    </section>
  );
}
