import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { LogOut, Settings, User } from 'lucide-react';
import { Link, useNavigate } from 'react-router';

import { Avatar } from '@/components/ui/avatar';
import { useLogout } from '@/features/auth/api/logout';
import type { AuthUser } from '@/features/auth/api/types';
import { initials } from '@/lib/display';

const itemClasses =
  'flex cursor-pointer items-center gap-2 rounded-md px-2 py-2 text-sm outline-none select-none data-[highlighted]:bg-muted';

export function UserMenu({ user }: { user: AuthUser }) {
  const navigate = useNavigate();
  const logout = useLogout({ onSuccess: () => navigate('/login') });

  return (
    // Not modal: a modal menu hides the page with aria-hidden while its links stay focusable.
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        // The visible initials are part of the name (WCAG 2.5.3, label in name; axe ignores a parenthetical).
        aria-label={`Open user menu: ${initials(user.name)}`}
        className="rounded-full shadow-sm transition-opacity hover:opacity-90"
      >
        <Avatar src={user.avatarUrl} name={user.name} fallback="initials" size="sm" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 w-60 rounded-lg border border-border bg-surface p-1 shadow-lg"
        >
          <DropdownMenu.Label className="px-2 py-2">
            <span className="block truncate text-sm font-semibold">{user.name}</span>
            <span className="block truncate text-xs text-muted-foreground">
              {user.email || `@${user.username}`}
            </span>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="my-1 h-px bg-border" />
          <DropdownMenu.Item asChild className={itemClasses}>
            <Link to="/profile">
              <User className="size-4" aria-hidden="true" />
              Your Profile
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild className={itemClasses}>
            <Link to="/settings">
              <Settings className="size-4" aria-hidden="true" />
              Settings
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="my-1 h-px bg-border" />
          <DropdownMenu.Item
            className={`${itemClasses} text-destructive`}
            disabled={logout.isPending}
            onSelect={() => logout.mutate()}
          >
            <LogOut className="size-4" aria-hidden="true" />
            Sign out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
