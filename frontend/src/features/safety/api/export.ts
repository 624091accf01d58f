import { useMutation } from '@tanstack/react-query';

import { api, errorMessage, unwrap } from '@/lib/api-client';
import { toast } from '@/stores/toast';

export const EXPORT_FILE_NAME = 'scoutvote-my-data.json';

/** Saves a JSON document as a file through a temporary link. */
function saveJson(data: unknown, fileName: string) {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** GET /api/profile/export, downloaded as a file; the server allows one an hour. */
export function useExportMyData() {
  return useMutation({
    mutationFn: () => unwrap(api.GET('/api/profile/export')),
    onSuccess: (data) => {
      saveJson(data, EXPORT_FILE_NAME);
      toast({ title: 'Your data is downloading', description: EXPORT_FILE_NAME });
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorMessage(error, 'Failed to export your data'),
      }),
  });
}
