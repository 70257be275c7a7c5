import type {
  ActionCheckResponse,
  ActionCodeRequest,
  ChangeEmailRequest,
  ChangePasswordRequest,
  ConfirmPasswordResetRequest,
  MessageResponse,
  RegisterRequest,
  SendPasswordResetRequest,
  SessionResponse,
  SignInRequest,
  SignInResponse,
  UpdateProfileRequest,
  UserResponse,
} from '@kringle/contracts/accounts';
import { api } from '../../lib/api';

/**
 * The Accounts endpoints of API.md. Everything a guest calls skips auth; the calls an
 * unverified user must be able to make (reload the user, ask for a verification e-mail, correct
 * the address) skip only the verified check (spec §5, §7).
 */
const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    register: build.mutation<UserResponse, RegisterRequest>({
      query: (body) => ({ url: '/user', method: 'POST', body }),
      extraOptions: { skipAuth: true },
    }),
    // A staff account with a second factor gets a challenge instead of a session: staff only, so refused here.
    signIn: build.mutation<SignInResponse, SignInRequest>({
      query: (body) => ({ url: '/auth/sign-in', method: 'POST', body }),
      extraOptions: { skipAuth: true },
    }),
    getMe: build.mutation<UserResponse, void>({
      // A mutation, not a query: the verify screen reloads the user on demand and must never see a cached answer.
      query: () => ({ url: '/user/me' }),
      extraOptions: { skipVerified: true },
    }),
    updateProfile: build.mutation<UserResponse, UpdateProfileRequest>({
      query: (body) => ({ url: '/user/me', method: 'PATCH', body }),
    }),
    changePassword: build.mutation<SessionResponse, ChangePasswordRequest>({
      query: (body) => ({ url: '/user/me/password', method: 'POST', body }),
    }),
    sendVerificationEmail: build.mutation<MessageResponse, { redirectUrl: string }>({
      query: (body) => ({ url: '/user/auth/email-verification', method: 'POST', body }),
      extraOptions: { skipVerified: true },
    }),
    // Decision 0068: an unverified account corrects its address (and gets a new link there).
    changeEmail: build.mutation<UserResponse, ChangeEmailRequest>({
      query: (body) => ({ url: '/user/me/email', method: 'PUT', body }),
      extraOptions: { skipVerified: true },
    }),
    sendPasswordReset: build.mutation<MessageResponse, SendPasswordResetRequest>({
      query: (body) => ({ url: '/user/auth/reset-password', method: 'POST', body }),
      extraOptions: { skipAuth: true },
    }),
    checkActionCode: build.mutation<ActionCheckResponse, ActionCodeRequest>({
      query: (body) => ({ url: '/auth/action/check', method: 'POST', body }),
      extraOptions: { skipAuth: true },
    }),
    verifyEmail: build.mutation<MessageResponse, ActionCodeRequest>({
      query: (body) => ({ url: '/auth/action/verify-email', method: 'POST', body }),
      extraOptions: { skipAuth: true },
    }),
    confirmPasswordReset: build.mutation<MessageResponse, ConfirmPasswordResetRequest>({
      query: (body) => ({ url: '/auth/action/reset-password', method: 'POST', body }),
      extraOptions: { skipAuth: true },
    }),
  }),
});

export const {
  useRegisterMutation,
  useSignInMutation,
  useGetMeMutation,
  useSendVerificationEmailMutation,
  useSendPasswordResetMutation,
  useCheckActionCodeMutation,
  useVerifyEmailMutation,
  useConfirmPasswordResetMutation,
  useUpdateProfileMutation,
  useChangePasswordMutation,
  useChangeEmailMutation,
} = authApi;
