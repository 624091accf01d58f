import { useState, type ReactNode } from 'react';

import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { useSport } from '@/stores/sport';

import { useCreateNomination } from '../api/create-nomination';

import { PlayerForm } from './player-form';

/** The Athlete Nomination form in a dialog, opened by `trigger` (a button). */
export function NominatePlayerDialog({ trigger }: { trigger: ReactNode }) {
  const [open, setOpen] = useState(false);
  const { sport } = useSport();
  const create = useCreateNomination();
  const close = () => setOpen(false);

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Athlete Nomination</DialogTitle>
          <DialogDescription>
            Nominate a promising young athlete. Nominations start pending, are open to community
            votes and are reviewed by admins.
          </DialogDescription>
        </DialogHeader>
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
      </DialogContent>
    </Dialog>
  );
}
