import type { ReactNode } from 'react';

import { useSport } from '@/stores/sport';

import { useCreateNomination } from '../api/create-nomination';

import { PlayerForm } from './player-form';
import { PlayerFormDialog } from './player-form-dialog';

/** The Athlete Nomination form in a dialog, opened by `trigger` (a button). */
export function NominatePlayerDialog({ trigger }: { trigger: ReactNode }) {
  const { sport } = useSport();
  const create = useCreateNomination();

  return (
    <PlayerFormDialog
      title="Athlete Nomination"
      description="Nominate a promising young athlete. Nominations start pending, are open to community votes and are reviewed by admins."
      trigger={trigger}
    >
      {(close) => (
        <PlayerForm
          mode="nominate"
          defaultValues={{
            name: '',
            age: '',
            graduationYear: '',
            position: '',
            nationality: '',
            club: '',
            sport,
            skills: '',
            videoLink: '',
          }}
          onSubmit={create.mutateAsync}
          onDone={close}
          onNavigate={close}
        />
      )}
    </PlayerFormDialog>
  );
}
