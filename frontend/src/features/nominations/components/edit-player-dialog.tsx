import { useState, type ReactNode } from 'react';

import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { isSport } from '@/stores/sport';

import type { Player } from '../api/types';
import { useUpdatePlayer } from '../api/update-player';

import { PlayerForm } from './player-form';

/** The Edit Player Information form in a dialog, opened by `trigger` (a button). */
export function EditPlayerDialog({ player, trigger }: { player: Player; trigger: ReactNode }) {
  const [open, setOpen] = useState(false);
  const update = useUpdatePlayer();
  const close = () => setOpen(false);

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Edit Player Information</DialogTitle>
          <DialogDescription>Update {player.name}&apos;s details.</DialogDescription>
        </DialogHeader>
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
      </DialogContent>
    </Dialog>
  );
}
