import { Pencil } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { AdminDashboard } from '@/features/admin/components/admin-dashboard';
import type { RenderEditPlayer } from '@/features/admin/components/pending-row';
import { useUser } from '@/features/auth/hooks/use-user';
import { EditPlayerDialog } from '@/features/nominations/components/edit-player-dialog';

const renderEditPlayer: RenderEditPlayer = (player) => (
  <EditPlayerDialog
    player={player}
    trigger={
      <Button size="sm" variant="outline">
        <Pencil aria-hidden="true" />
        Edit Player
      </Button>
    }
  />
);

/** Rendered inside RequireAdmin: the user is a signed-in admin (whose session may not act
 * as one yet: the dashboard then shows the two-factor step). */
export default function AdminDashboardPage() {
  const { user } = useUser();
  return (
    <>
      <PageHeader
        title="Admin Dashboard"
        description="Moderate nominations, verify players and manage users."
      />
      {user && (
        <AdminDashboard
          viewerId={user.id}
          actsAsAdmin={user.actsAsAdmin}
          renderEditPlayer={renderEditPlayer}
        />
      )}
    </>
  );
}
