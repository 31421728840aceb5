import { computed } from '@preact/signals-react';
import { member } from '../state/auth';
import { profile } from './store';

/**
 * One name for one person, on every screen: the profile's display name once there is a profile
 * (the last one seen, while it is read again), else the name the identity provider gave.
 */
export const memberName = computed(() => profile.value?.displayName || member.value?.name || '');
