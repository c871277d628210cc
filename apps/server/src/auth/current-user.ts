/** Who is calling: the signed-in user as the access layer resolved it, for every route and service. */
export interface CurrentUser {
  id: number;
  groupId: number;
  account: string;
  status: number;
  isAdmin: boolean;
  isPlatformAdmin: boolean;
}
