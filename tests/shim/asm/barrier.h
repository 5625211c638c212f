/* SPDX-License-Identifier: GPL-2.0 */
/* Hosted stand-in: the testcases need no barrier. */
