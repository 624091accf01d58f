import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

type DetailProps = {
  label: string;
  /** With an icon, the compact form of a side card; without, a fact in a profile's grid. */
  icon?: LucideIcon;
  children: ReactNode;
};

/** One labelled fact of a description list (`<dl>`): the label, then its value. */
export function Detail({ label, icon: Icon, children }: DetailProps) {
  if (Icon) {
    return (
      <div className="min-w-0">
        <dt className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
          <Icon className="size-4 shrink-0" aria-hidden="true" />
          {label}
        </dt>
        <dd className="mt-0.5 pl-5.5 text-sm break-words">{children}</dd>
      </div>
    );
  }
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</dt>
      <dd className="mt-1 font-semibold break-words">{children}</dd>
    </div>
  );
}
