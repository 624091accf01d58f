import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { formatDistanceToNow } from 'date-fns';
import { Bell, CheckCheck } from 'lucide-react';
import { Link } from 'react-router';

import { buttonClasses } from '@/components/ui/button-classes';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';

import { useNotifications } from '../api/get-notifications';
import { useMarkNotificationsRead } from '../api/mark-read';
import type { Notification } from '../api/types';
import { useNotificationsLive } from '../hooks/use-notifications-live';

import { notificationKind } from './notification-kinds';

const itemClasses =
  'flex cursor-pointer gap-3 rounded-md px-2 py-2.5 text-sm outline-none select-none data-[highlighted]:bg-muted';

function unreadLabel(count: number) {
  return count > 99 ? '99+' : String(count);
}

function NotificationItem({
  notification,
  onRead,
}: {
  notification: Notification;
  onRead: (id: number) => void;
}) {
  const { icon: Icon, tone } = notificationKind(notification.type);
  const content = (
    <>
      <Icon className={cn('mt-0.5 size-5 shrink-0', tone)} aria-hidden="true" />
      <span className="min-w-0 flex-1">
        <span className={cn('block', !notification.read && 'font-semibold')}>
          {notification.message}
        </span>
        <span className="mt-0.5 block text-xs text-muted-foreground">
          {formatDistanceToNow(new Date(notification.createdAt), { addSuffix: true })}
        </span>
      </span>
      {!notification.read && (
        <span className="mt-1.5 size-2 shrink-0 rounded-full bg-primary" aria-label="Unread" />
      )}
    </>
  );
  const onSelect = () => {
    if (!notification.read) onRead(notification.id);
  };
  const target = notification.relatedNominationId;
  return target != null ? (
    <DropdownMenu.Item asChild className={itemClasses} onSelect={onSelect}>
      <Link to={`/nominations/${target}`}>{content}</Link>
    </DropdownMenu.Item>
  ) : (
    <DropdownMenu.Item className={itemClasses} onSelect={onSelect}>
      {content}
    </DropdownMenu.Item>
  );
}

/** The header's bell: the unread count, and the newest notifications in a menu. */
export function NotificationBell() {
  useNotificationsLive();
  const { data, isPending, isError } = useNotifications();
  const markRead = useMarkNotificationsRead();
  const unread = data?.unreadCount ?? 0;

  // Not modal: a modal menu hides the page with aria-hidden while its links stay focusable.
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
        // Narrower on phones, where the admin header also holds its tag and way back.
        className={cn(
          buttonClasses({ variant: 'ghost', size: 'icon' }),
          'relative size-8 sm:size-10',
        )}
      >
        <Bell aria-hidden="true" />
        {unread > 0 && (
          // Above the 16 px glyph's top-right corner (its bottom edge level with the top of the
          // bell's dome, 8 px over the centre), so the count never covers the bell.
          <span
            data-testid="unread-count"
            className="pointer-events-none absolute bottom-[calc(50%+0.5rem)] left-[calc(50%+0.25rem)] flex h-4.5 min-w-4.5 items-center justify-center rounded-full bg-destructive px-1 text-[0.65rem] leading-none font-bold text-destructive-foreground"
          >
            {unreadLabel(unread)}
          </span>
        )}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          collisionPadding={8}
          className="z-50 flex max-h-[min(32rem,calc(100dvh-5rem))] w-[min(24rem,calc(100vw-1rem))] flex-col rounded-lg border border-border bg-surface p-1 shadow-lg"
        >
          <div className="flex items-center justify-between gap-2 px-2 py-2">
            <DropdownMenu.Label className="text-sm font-semibold">Notifications</DropdownMenu.Label>
            {unread > 0 && (
              <DropdownMenu.Item
                className="inline-flex cursor-pointer items-center gap-1 rounded-md px-2 py-1 text-xs font-semibold text-primary outline-none data-[highlighted]:bg-primary-soft"
                onSelect={(event) => {
                  event.preventDefault();
                  markRead.mutate({ all: true });
                }}
              >
                <CheckCheck className="size-3.5" aria-hidden="true" />
                Mark all as read
              </DropdownMenu.Item>
            )}
          </div>
          <DropdownMenu.Separator className="my-1 h-px bg-border" />
          <div className="overflow-y-auto">
            {isPending ? (
              <div className="flex justify-center py-6 text-primary">
                <Spinner label="Loading notifications" />
              </div>
            ) : isError ? (
              <p className="px-2 py-6 text-center text-sm text-muted-foreground">
                Notifications could not be loaded.
              </p>
            ) : data.items.length === 0 ? (
              <p className="px-2 py-6 text-center text-sm text-muted-foreground">
                No notifications yet.
              </p>
            ) : (
              data.items.map((notification) => (
                <NotificationItem
                  key={notification.id}
                  notification={notification}
                  onRead={(id) => markRead.mutate({ ids: [id] })}
                />
              ))
            )}
          </div>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
