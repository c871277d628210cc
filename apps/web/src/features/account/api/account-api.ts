/** Own-account calls: profile (PUT /api/user) and password (POST /api/user/password). */
import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordRequest, UpdateProfileRequest, UserDto } from '@sluice/shared/account.schema';
import { api } from '../../../lib/api-client';
import { setCurrentUser } from '../../../lib/session';

export const updateProfile = (body: UpdateProfileRequest) => api.put<UserDto>('/user', body);

/** The server signs out every session on success, so the caller leaves the session (and its caches). */
export const changePassword = (body: ChangePasswordRequest) => api.post<null>('/user/password', body, { keepCache: true });

/** POST /api/user/Picture: the cropped avatar; the answer is the profile with its new Picture. */
export async function uploadAvatar(file: Blob, fileName: string) {
  const form = new FormData();
  form.append('file', file, fileName);
  const res = await api.post<UserDto>('/user/Picture', form);
  await setCurrentUser(res.data);
  return res;
}

export async function removeAvatar() {
  const res = await api.delete<UserDto>('/user/Picture');
  await setCurrentUser(res.data);
  return res;
}

export function useUpdateProfile() {
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (response) => setCurrentUser(response.data),
  });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
