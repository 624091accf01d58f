import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';

type SettingsSectionProps = {
  id: string;
  icon: LucideIcon;
  title: string;
  description?: ReactNode;
  tone?: 'default' | 'danger';
  children: ReactNode;
};

/** One card of the settings page, labelled by its heading. */
export function SettingsSection({
  id,
  icon: Icon,
  title,
  description,
  tone = 'default',
  children,
}: SettingsSectionProps) {
  const danger = tone === 'danger';
  return (
    <Card
      role="region"
      aria-labelledby={`${id}-title`}
      className={cn(danger && 'border-destructive/40')}
    >
      <CardHeader>
        <CardTitle
          level={2}
          id={`${id}-title`}
          className={cn('flex items-center gap-2', danger && 'text-destructive')}
        >
          <Icon className="size-5" aria-hidden="true" />
          {title}
        </CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}
