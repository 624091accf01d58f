import type { ReactNode } from 'react';

import { isSport } from '@/stores/sport';

import type { Player } from '../api/types';
import { useUpdatePlayer } from '../api/update-player';

import { PlayerForm } from './player-form';
import { PlayerFormDialog } from './player-form-dialog';

/** The Edit Player Information form in a dialog, opened by `trigger` (a button). */
export function EditPlayerDialog({ player, trigger }: { player: Player; trigger: ReactNode }) {
  const update = useUpdatePlayer();

  return (
    <PlayerFormDialog
      title="Edit Player Information"
      description={<>Update {player.name}&apos;s details.</>}
      trigger={trigger}
    >
      {(close) => (
        <PlayerForm
          mode="edit"
          defaultValues={{
            name: player.name,
            age: player.age?.toString() ?? '',
            graduationYear: player.graduationYear?.toString() ?? '',
            position: player.position,
            nationality: player.nationality,
            club: player.club,
            // A sport the form does not offer must be chosen again.
            sport: isSport(player.sport) ? player.sport : '',
            skills: player.skills,
            videoLink: player.videoLink,
          }}
          onSubmit={(values) => update.mutateAsync({ ...values, id: player.id })}
          onDone={close}
          onNavigate={close}
        />
      )}
    </PlayerFormDialog>
  );
}
